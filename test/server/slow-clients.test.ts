import { connect, type Socket } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";

const SLOW = 900;

/** Opens a socket from `localAddress` and sends `head` (a request that never completes). */
function slowSocket(port: number, localAddress: string, head: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port, localAddress }, () => {
      socket.write(head);
      resolve(socket);
    });
    socket.on("error", () => undefined);
    socket.resume(); // reads (and drops) answers, so a close by the server is seen
    socket.once("error", reject);
  });
}

const closed = (socket: Socket) =>
  new Promise<void>((resolve) => (socket.destroyed ? resolve() : socket.once("close", () => resolve())));

async function timed(url: string, headers: Record<string, string> = {}): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const res = await request(url, { headers, signal: AbortSignal.timeout(5_000) });
  await res.body.dump();
  return { ms: performance.now() - started, status: res.statusCode };
}

describe("slow clients", () => {
  let s: TestServer;
  let port: number;
  beforeAll(async () => {
    s = await startServer({ headersTimeoutMs: 4_000, requestTimeoutMs: 5_000 });
    port = Number(new URL(s.url).port);
    await s.call("POST", "/api/v1/status-pages", { slug: "public", title: "Public" });
  });
  afterAll(() => s.close());

  it(`answers normal requests within 1 s while ${SLOW} slow sockets are open, and sheds them`, async () => {
    const partialBody =
      'POST /api/v1/monitors HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"na';
    const partialHeaders = "GET /api/v1/monitors HTTP/1.1\r\nHost: x\r\nX-Slow: 1\r\n";
    const keyedBody = partialBody
      .replace("Host: x", `Host: x\r\nAuthorization: Bearer ${s.key}`)
      .replace("100000", "10000");
    const heads = [partialBody, partialHeaders, keyedBody];
    const sockets: Socket[] = [];
    try {
      // Spread over four source addresses, each under the per-address cap, so all stay open.
      for (let batch = 0; batch < SLOW; batch += 100) {
        const opened = Array.from({ length: 100 }, (_, j) =>
          slowSocket(port, `127.0.0.${2 + ((batch + j) % 4)}`, heads[(batch + j) % 3] as string),
        );
        sockets.push(...(await Promise.all(opened)));
      }
      // Let the server finish the burst of connections; the slow ones stay open meanwhile.
      await new Promise((r) => setTimeout(r, 500));
      const held = sockets.filter((x) => !x.destroyed).length;
      const answers = [];
      for (let i = 0; i < 5; i++) {
        answers.push(await timed(`${s.url}/api/v1/monitors`, { authorization: `Bearer ${s.key}` }));
        answers.push(await timed(`${s.url}/api/status/public.json`));
      }
      const worst = Math.max(...answers.map((a) => a.ms));
      console.log(
        `${SLOW} slow sockets (${held} still open): ${answers.length} normal requests, slowest ${worst.toFixed(1)} ms`,
      );
      expect(held).toBeGreaterThanOrEqual(500);
      expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
      expect(worst).toBeLessThan(1_000);
      // Without a key: answered 401 and closed without waiting for the body. The rest: closed by
      // the headers and request timeouts (4 s and 5 s, checked every second).
      const started = performance.now();
      await Promise.all(sockets.map(closed));
      expect(performance.now() - started).toBeLessThan(8_000);
    } finally {
      for (const socket of sockets) socket.destroy();
    }
  });

  it("times out a body shorter than its Content-Length (408) instead of hanging", async () => {
    const socket = await slowSocket(
      port,
      "127.0.0.1",
      `POST /api/v1/monitors HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${s.key}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":`,
    );
    let answer = "";
    socket.on("data", (chunk: Buffer) => (answer += String(chunk)));
    const started = performance.now();
    await closed(socket);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(performance.now() - started).toBeLessThan(8_000);
  });

  it("closes connections from one address over the per-address cap at once", async () => {
    const capped = await startServer({ maxConnectionsPerAddress: 10 });
    const capPort = Number(new URL(capped.url).port);
    const sockets: Socket[] = [];
    try {
      for (let i = 0; i < 15; i++) sockets.push(await slowSocket(capPort, "127.0.0.5", "GET / HTTP/1.1\r\n"));
      await new Promise((r) => setTimeout(r, 200));
      expect(sockets.filter((x) => x.destroyed || x.readyState === "closed").length).toBe(5);
      expect((await timed(`${capped.url}/api/v1/monitors`, { authorization: `Bearer ${capped.key}` })).status).toBe(
        200,
      );
    } finally {
      for (const socket of sockets) socket.destroy();
      await capped.close();
    }
  });
});
