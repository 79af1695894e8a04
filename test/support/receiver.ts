import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";

/** One request the receiver got. */
export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A local HTTP endpoint that records what arrives and answers with `status` (changeable). */
export interface Receiver {
  url: string;
  received: Received[];
  status: number;
  /** Resolves when `count` requests have arrived (or rejects after `timeoutMs`). */
  waitFor: (count: number, timeoutMs?: number) => Promise<Received[]>;
  close: () => Promise<void>;
}

export async function startReceiver(status = 200): Promise<Receiver> {
  const received: Received[] = [];
  const waiters: (() => void)[] = [];
  const receiver: Receiver = {
    url: "",
    received,
    status,
    waitFor: (count, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (received.length >= count) {
            clearTimeout(timer);
            resolve(received.slice(0, count));
            return true;
          }
          return false;
        };
        const timer = setTimeout(
          () => reject(new Error(`only ${received.length} of ${count} requests arrived`)),
          timeoutMs,
        );
        if (!check()) waiters.push(() => void check());
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => {
      body += chunk;
    });
    req.on("end", () => {
      received.push({ method: req.method ?? "", path: req.url ?? "", headers: req.headers, body });
      res.writeHead(receiver.status, { "content-type": "text/plain" }).end("ok");
      for (const w of waiters.splice(0)) w();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}
