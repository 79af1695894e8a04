import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CheckerAgent } from "../../../server/agents/agent";
import { newKey, startServer, type TestServer } from "../../support/server";
import { eventually } from "../../support/target";
import { unixBridge } from "./bridge";

describe("an agent across a server restart", () => {
  const dir = mkdtempSync(join(tmpdir(), "uptime-restart-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("keeps the results it could not deliver, reconnects with backoff, and each is recorded once", async () => {
    // A target that answers after 1 s: checks are under way when the server stops.
    const target = createServer((_q, r) => setTimeout(() => r.end("ok"), 1_000));
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}/`;
    const db = join(dir, "uptime.db");
    const devKey = newKey();
    const options = { db, devKey, checker: true, minIntervalSec: 1, leaseMs: 5_000 };
    let s: TestServer = await startServer(options);
    const key = (await s.app.store.keys.create("dev", "agent", undefined, "edge")).key;
    const bridge = await unixBridge(join(dir, "server.sock"), { port: Number(new URL(s.url).port) });
    const agent = new CheckerAgent({
      server: "http://uptime.internal",
      socketPath: join(dir, "server.sock"),
      key,
      location: "edge",
      allowPrivateTargets: true,
      concurrency: 16,
      maxBuffered: 1_000,
      waitMs: 200,
    });
    agent.start();
    try {
      for (let i = 0; i < 5; i++) {
        expect(
          (
            await s.call("POST", "/api/v1/monitors", {
              name: `m${i}`,
              type: "http",
              url,
              interval_sec: 2,
              timeout_sec: 1,
              locations: ["edge"],
            })
          ).status,
        ).toBe(201);
      }
      // Checks leased and running: stop the server under them.
      await eventually(async () => s.app.leases.held(agent.client.agentId).length >= 5);
      const before = agent.counts.delivered;
      const away = Date.now();
      await s.close();
      await eventually(async () => agent.pending >= 5, 10_000);
      const kept = agent.pending;
      await new Promise((r) => setTimeout(r, 1_500)); // a few failed calls: the agent backs off
      s = await startServer(options);
      bridge.to.port = Number(new URL(s.url).port);
      // The agent's backoff between failed calls grows to 30 s (BACKOFF_MAX_MS): a server that was
      // away long (a slow close or start on a busy machine) is called again within that, not sooner.
      const back = Date.now();
      await eventually(async () => agent.pending === 0 && agent.counts.delivered >= before + kept, 45_000).catch(
        (err: Error) => {
          const took = (since: number) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
          throw new Error(
            `${err.message}: ${agent.pending} pending, ${agent.counts.delivered - before} of ${kept} delivered, ${JSON.stringify(agent.counts)}; server away ${took(away)}, back ${took(back)} ago`,
          );
        },
      );
      const rows = await s.app.store.db
        .prepare(
          "SELECT check_key, COUNT(*) AS n FROM heartbeats WHERE location = 'edge' GROUP BY check_key HAVING n > 1",
        )
        .all();
      expect(rows).toEqual([]);
      expect(agent.counts.dropped).toBe(0);
      expect(agent.counts.refused).toBe(0);
    } finally {
      await agent.stop(2_000);
      await bridge.close();
      await s.close();
      await new Promise<void>((resolve) => target.close(() => resolve()));
    }
  });
});
