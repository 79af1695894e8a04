import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer, httpMonitorId } from "../../support/server";
import { freshDatabase } from "../../support/store-engines";
import { eventually } from "../../support/target";

const ROUNDS = 4;

/** Two replicas on one PostgreSQL database sweep the same incident rules several times a second. */
describe("an incident rule swept by two replicas at once", () => {
  let hooks: Server;
  let hookUrl: string;
  let a: TestServer;
  let b: TestServer;
  const posts: { event: string }[] = [];

  beforeAll(async () => {
    hooks = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        posts.push({ event: (JSON.parse(body) as { event: string }).event });
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, "127.0.0.1", resolve));
    hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`;
    const database = await freshDatabase("postgres");
    // Both sweep every 50 ms: their passes overlap again and again.
    a = await startServer({ ...database, incidentRuleTickMs: 50, subscribeLimitPerHour: 20 });
    b = await startServer({ ...database, devKey: a.key, incidentRuleTickMs: 50, subscribeLimitPerHour: 20 });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await new Promise<void>((resolve) => hooks?.close(() => resolve()));
  });

  it(`opens one incident per outage and tells the subscriber once per change, over ${ROUNDS} outages`, async () => {
    const api = await httpMonitorId(a, "api", "https://example.com/");
    const created = await a.call("POST", "/api/v1/status-pages", {
      slug: "twice",
      title: "Twice",
      sections: [{ name: "Core", components: [{ key: "api", name: "Public API", monitors: [api] }] }],
      incident_rules: [{ component: "api", minutes: 0, title: "{name} is down" }],
    });
    expect(created.status).toBe(201);
    const pageId = created.body.data.id as string;
    expect(
      (
        await b.call(
          "POST",
          "/status/twice/subscribe",
          { webhook: hookUrl, secret: "hook-secret-0123456789" },
          { key: null },
        )
      ).status,
    ).toBe(202);
    await a.app.store.recordCheck(
      api,
      { up: true, response_time_ms: 80, status_code: 200, error: null },
      Date.now() - 5000,
    );

    const incidents = async (state: string) =>
      (await b.call("GET", `/api/v1/status-pages/${pageId}/incidents?state=${state}`)).body.data as unknown[];
    for (let round = 1; round <= ROUNDS; round++) {
      await a.app.store.recordCheck(
        api,
        { up: false, response_time_ms: null, status_code: 503, error: "HTTP 503" },
        Date.now(),
      );
      await eventually(async () => ((await incidents("open")).length === 1 ? true : undefined), 15_000);
      // Many passes of both replicas while the monitor stays down.
      await new Promise((r) => setTimeout(r, 400));
      expect(await incidents("open")).toHaveLength(1);
      await b.app.store.recordCheck(api, { up: true, response_time_ms: 90, status_code: 200, error: null }, Date.now());
      await eventually(async () => ((await incidents("resolved")).length === round ? true : undefined), 15_000);
      await new Promise((r) => setTimeout(r, 400));
    }
    expect(await incidents("open")).toHaveLength(0);
    expect(await incidents("resolved")).toHaveLength(ROUNDS);
    await eventually(async () => (posts.length >= 2 * ROUNDS ? true : undefined), 15_000);
    await new Promise((r) => setTimeout(r, 500));
    expect(posts.map((p) => p.event)).toEqual(
      Array.from({ length: ROUNDS }, () => ["incident.opened", "incident.resolved"]).flat(),
    );
  }, 120_000);
});
