import { createServer } from "node:https";
import type { AddressInfo } from "node:net";
import selfsigned from "selfsigned";

/** A local https site with a self-signed certificate valid for `days` more days (selfsigned). */
export interface TlsTarget {
  url: string;
  notAfter: Date;
  close: () => Promise<void>;
}

export async function startTlsTarget(days: number): Promise<TlsTarget> {
  const notAfter = new Date(Date.now() + days * 86_400_000);
  const pems = await selfsigned.generate([{ name: "commonName", value: "localhost" }], {
    keyType: "ec",
    algorithm: "sha256",
    notBeforeDate: new Date(Date.now() - 86_400_000),
    notAfterDate: notAfter,
  });
  const server = createServer({ key: pems.private, cert: pems.cert }, (_req, res) => res.writeHead(200).end("ok"));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `https://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    notAfter,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
