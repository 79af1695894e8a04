import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
} from "node:crypto";
import { LRUCache } from "lru-cache";
import { existsSync, readFileSync, writeFileSync } from "node:fs";

/** A sealed value: `enc1.<key id>.<base64url(iv ‖ tag ‖ ciphertext)>`. */
const SEALED = /^enc1\.([A-Za-z0-9_-]{1,32})\.([A-Za-z0-9_-]+)$/;
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * Each raw key as a KeyObject, made once: a cipher built from a KeyObject costs about a quarter of
 * one built from a Buffer (Node wraps a Buffer key anew on every call), and every read of a
 * monitor opens up to three sealed fields.
 */
const keyObjects = new WeakMap<Buffer, KeyObject>();
function keyObject(raw: Buffer): KeyObject {
  let key = keyObjects.get(raw);
  if (!key) {
    key = createSecretKey(raw);
    keyObjects.set(raw, key);
  }
  return key;
}

interface Key {
  id: string;
  key: Buffer;
}

/** Parses a key file: one `<id> <base64 of 32 bytes>` per line, the first is current. */
function parseKeyFile(text: string, file: string): Key[] {
  const keys = text
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("#"))
    .map((line, i) => {
      const [id, encoded] = line.split(/\s+/);
      const key = Buffer.from(encoded ?? "", "base64");
      if (!id || !/^[A-Za-z0-9_-]{1,32}$/.test(id) || key.length !== 32) {
        throw new Error(`${file}: line ${i + 1} must be "<key id> <base64 of 32 random bytes>"`);
      }
      return { id, key };
    });
  if (keys.length === 0) throw new Error(`${file}: holds no key`);
  return keys;
}

const newKeyLine = () => `k${Date.now().toString(36)} ${randomBytes(32).toString("base64")}`;

/**
 * The server's secret keyring: AES-256-GCM for secret fields at rest, HMAC-SHA256 for
 * fingerprints. The first key seals; every key opens, so rows sealed before a rotation still
 * read (and are resealed under the new key). A key id the ring does not know makes it re-read its
 * file once, so a rotation by `keys rotate-secret` in another process is picked up.
 */
export class SecretBox {
  private keys: Key[];
  /**
   * Values opened lately, by sealed text: a read of a monitor opens up to three fields, and a
   * cipher per field would be most of the read's cost. A sealed text names its key and carries a
   * fresh IV, so an entry is never stale; the process holds these plaintexts anyway.
   */
  private readonly opened = new LRUCache<string, string>({ max: 20_000 });
  private macKey: Buffer;
  /**
   * Fingerprints made lately, by what they are of (`fingerprint`): every read of a monitor with
   * secret headers or variables shows each as its HMAC, the same until the value or the key
   * changes. Cleared when the MAC key changes, so an entry is never stale.
   */
  private readonly fingerprints = new LRUCache<string, string>({ max: 20_000 });

  private constructor(
    keys: Key[],
    private readonly file?: string,
  ) {
    this.keys = keys;
    this.macKey = SecretBox.deriveMacKey(keys);
  }

  /** A ring for an in-memory database: one random key that lives as long as the process. */
  static ephemeral(): SecretBox {
    return new SecretBox([{ id: "mem", key: randomBytes(32) }]);
  }

  /** Loads the key file, creating it (mode 0600, one random key) when absent. */
  static ensure(file: string): SecretBox {
    if (!existsSync(file)) writeFileSync(file, `${newKeyLine()}\n`, { mode: 0o600, flag: "wx" });
    return new SecretBox(parseKeyFile(readFileSync(file, "utf8"), file), file);
  }

  /** Adds a new current key at the top of the key file, keeping the old ones for reading. */
  static addKey(file: string): string {
    const old = existsSync(file) ? readFileSync(file, "utf8") : "";
    const line = newKeyLine();
    writeFileSync(file, `${line}\n${old}`, { mode: 0o600 });
    return line.split(" ")[0] as string;
  }

  /** The id of the key new values are sealed with. */
  get currentId(): string {
    return (this.keys[0] as Key).id;
  }

  /** Encrypts `plain` under the current key. */
  seal(plain: string): string {
    const { id, key } = this.keys[0] as Key;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", keyObject(key), iv);
    cipher.setAAD(Buffer.from(id));
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return `enc1.${id}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64url")}`;
  }

  /** Decrypts a sealed value; a value stored before encryption existed is returned as is. */
  open(value: string): string {
    const known = this.opened.get(value);
    if (known !== undefined) return known;
    const match = SEALED.exec(value);
    if (!match) return value;
    const plain = this.decrypt(match);
    this.opened.set(value, plain);
    return plain;
  }

  private decrypt(match: RegExpExecArray): string {
    const [, id, payload] = match as unknown as [string, string, string];
    const key = this.find(id);
    const raw = Buffer.from(payload, "base64url");
    const decipher = createDecipheriv("aes-256-gcm", keyObject(key), raw.subarray(0, IV_BYTES));
    decipher.setAAD(Buffer.from(id));
    decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
    return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
  }

  /** Whether `value` is sealed under the current key (else it should be resealed). */
  isCurrent(value: string): boolean {
    return SEALED.exec(value)?.[1] === this.currentId;
  }

  /** HMAC-SHA256 (hex) of `data` under a key derived from the ring's oldest key. */
  mac(data: string): string {
    return createHmac("sha256", this.macKey).update(data).digest("hex");
  }

  /** `mac(data)`, remembered: for fingerprints that every read shows again. */
  fingerprint(data: string): string {
    let made = this.fingerprints.get(data);
    if (made === undefined) {
      made = this.mac(data);
      this.fingerprints.set(data, made);
    }
    return made;
  }

  private find(id: string): Buffer {
    let key = this.keys.find((k) => k.id === id);
    if (!key && this.file) {
      this.keys = parseKeyFile(readFileSync(this.file, "utf8"), this.file);
      this.macKey = SecretBox.deriveMacKey(this.keys);
      this.fingerprints.clear();
      key = this.keys.find((k) => k.id === id);
    }
    if (!key) throw new Error(`a stored secret was sealed with key ${id}, which the secret key file does not hold`);
    return key.key;
  }

  // The oldest key, so fingerprints survive rotations for as long as it stays in the file.
  private static deriveMacKey(keys: Key[]): Buffer {
    const oldest = keys[keys.length - 1] as Key;
    return Buffer.from(hkdfSync("sha256", oldest.key, Buffer.alloc(0), "pulumi-uptime fingerprint", 32));
  }
}
