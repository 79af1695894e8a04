import { randomBytes, scryptSync, timingSafeEqual } from "node:crypto";
import { BlockList, isIPv4, isIPv6 } from "node:net";

/** A password's scrypt record: `<salt hex>:<hash hex>`. The password itself is never stored. */
export function hashPassword(password: string): string {
  const salt = randomBytes(16);
  return `${salt.toString("hex")}:${scryptSync(password, salt, 32).toString("hex")}`;
}

/** Whether `password` matches the record, in constant time. */
export function passwordMatches(record: string, password: string): boolean {
  const [salt, hash] = record.split(":");
  if (!salt || !hash) return false;
  const given = scryptSync(password, Buffer.from(salt, "hex"), 32);
  return timingSafeEqual(given, Buffer.from(hash, "hex"));
}

/** Whether `address` is inside one of the CIDR ranges. */
export function addressAllowed(address: string, cidrs: readonly string[]): boolean {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const [net, bits] = cidr.split("/") as [string, string];
    list.addSubnet(net, Number(bits), isIPv6(net) ? "ipv6" : "ipv4");
  }
  const plain = address.startsWith("::ffff:") && isIPv4(address.slice(7)) ? address.slice(7) : address;
  return list.check(plain, isIPv6(plain) ? "ipv6" : "ipv4");
}

/**
 * The cookie value that proves a viewer gave the page's password: an HMAC of the page id and its
 * password record under the server's key, so that changing the password ends every session.
 */
export function accessToken(mac: (data: string) => string, pageId: string, record: string): string {
  return mac(`status-page-access\n${pageId}\n${record}`);
}

/** Whether a cookie value is the page's access token, in constant time. */
export function tokenMatches(expected: string, given: string | undefined): boolean {
  if (!given || given.length !== expected.length) return false;
  return timingSafeEqual(Buffer.from(expected), Buffer.from(given));
}
