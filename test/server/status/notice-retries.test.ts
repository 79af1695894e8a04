import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer, openIncident } from "../../support/server";
import { eventually } from "../../support/target";

const SECRET = "hook-secret-0123456789";
const DELAYS_MS = [200, 400];

/** A webhook receiver that refuses (HTTP 503) the first `refusals` posts at each path, then accepts. */
interface Receiver {
  url: string;
  refusals: Map<string, number>;
  posts: { path: string; at: number; body: string; signature: string | undefined }[];
  server: Server;
}

async function startReceiver(): Promise<Receiver> {
  const r: Receiver = { url: "", refusals: new Map(), posts: [], server: createServer() };
  r.server.on("request", (req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const path = req.url ?? "";
      r.posts.push({ path, at: Date.now(), body, signature: req.headers["x-signature"] as string | undefined });
      const left = r.refusals.get(path) ?? 0;
      r.refusals.set(path, left - 1);
      res.writeHead(left > 0 ? 503 : 200).end();
    });
  });
  await new Promise<void>((resolve) => r.server.listen(0, "127.0.0.1", resolve));
  r.url = `http://127.0.0.1:${(r.server.address() as AddressInfo).port}`;
  return r;
}

describe("a status page's notices to subscribers are tried again", () => {
  let s: TestServer;
  let hooks: Receiver;
  let pageId: string;

  beforeAll(async () => {
    hooks = await startReceiver();
    s = await startServer({ notifyRetryDelaysMs: DELAYS_MS });
    pageId = (
      await s.call("POST", "/api/v1/status-pages", {
        slug: "retry",
        title: "Retry",
        sections: [{ name: "Core", components: [{ key: "desk", name: "Support desk", rule: "manual" }] }],
      })
    ).body.data.id as string;
  });
  afterAll(async () => {
    await s?.close();
    await new Promise<void>((resolve) => hooks.server.close(() => resolve()));
  });

  const subscribe = async (path: string) =>
    expect(
      (
        await s.call(
          "POST",
          "/status/retry/subscribe",
          { webhook: `${hooks.url}${path}`, secret: SECRET },
          { key: null },
        )
      ).status,
    ).toBe(202);
  const postsTo = (path: string) => hooks.posts.filter((p) => p.path === path);

  it("posts a refused notice again after each delay, the same signed body, until it is accepted, then no more", async () => {
    hooks.refusals.set("/flaky", 2);
    await subscribe("/flaky");
    const opened = Date.now();
    await openIncident(s, pageId, {
      title: "Queues are long",
      message: "Looking into it.",
      components: { desk: "degraded" },
    });
    await eventually(async () => postsTo("/flaky").length >= 3, 10_000);
    await new Promise((r) => setTimeout(r, (DELAYS_MS[1] as number) * 2));
    const posts = postsTo("/flaky");
    expect(posts).toHaveLength(3);
    expect(new Set(posts.map((p) => p.body)).size).toBe(1);
    const body = posts[0]?.body as string;
    expect(JSON.parse(body)).toMatchObject({ event: "incident.opened", incident: { title: "Queues are long" } });
    for (const p of posts)
      expect(p.signature).toBe(`sha256=${createHmac("sha256", SECRET).update(body).digest("hex")}`);
    // Backoff: each attempt waits its delay after the one before.
    expect((posts[1]?.at as number) - (posts[0]?.at as number)).toBeGreaterThanOrEqual((DELAYS_MS[0] as number) - 20);
    expect((posts[2]?.at as number) - (posts[1]?.at as number)).toBeGreaterThanOrEqual((DELAYS_MS[1] as number) - 20);
    expect((posts[0]?.at as number) - opened).toBeLessThan(5_000);
  });

  it("gives up after the last delay", async () => {
    hooks.refusals.set("/down", 100);
    await subscribe("/down");
    await openIncident(s, pageId, { title: "Mail is slow", message: "Looking.", components: { desk: "degraded" } });
    await eventually(async () => postsTo("/down").length >= 1 + DELAYS_MS.length, 10_000);
    await new Promise((r) =>
      setTimeout(
        r,
        DELAYS_MS.reduce((a, b) => a + b, 0),
      ),
    );
    expect(postsTo("/down")).toHaveLength(1 + DELAYS_MS.length);
  });
});
