import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { freeFixedPort } from "../../scripts/free-port";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { Store } from "../../server/index";
import { newKey, startServer, emailChannel, httpMonitorId } from "../support/server";

const dir = mkdtempSync(join(tmpdir(), "uptime-db-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("the embedded store", () => {
  it("keeps monitors, channels, status pages and keys across a restart on the same file", async () => {
    const db = join(dir, "restart.db");
    const key = newKey();
    const first = await startServer({ db, devKey: key });
    const channel = await emailChannel(first, "c", "a@example.com");
    const monitorId = await httpMonitorId(first, "kept", "https://example.com", { channel_ids: [channel.id] });
    await first.call("POST", `/api/v1/monitors/${monitorId}/pause`);
    const page = (
      await first.call("POST", "/api/v1/status-pages", {
        slug: "kept",
        title: "K",
        monitor_ids: [monitorId],
      })
    ).body.data;
    await first.close();

    const second = await startServer({ db, devKey: key });
    try {
      const read = (await second.call("GET", `/api/v1/monitors/${monitorId}`)).body.data;
      expect(read).toMatchObject({ name: "kept", status: "paused", channel_ids: [channel.id] });
      expect((await second.call("GET", `/api/v1/status-pages/${page.id}`)).body.data).toEqual(page);
      expect((await second.call("GET", `/api/v1/channels/${channel.id}`)).body.data).toEqual(channel);
    } finally {
      await second.close();
    }
  });

  it("keeps an acknowledged write when the server process is killed", async () => {
    const db = join(dir, "crash.db");
    const key = newKey();
    const port = await freeFixedPort();
    const child: ChildProcess = spawn(
      join(REPO_ROOT, "node_modules/.bin/node"),
      [join(REPO_ROOT, "dist/server/cli.js"), "serve", "--db", db, "--port", String(port), "--log-level", "warn"],
      { stdio: "inherit", env: { ...process.env, UPTIME_DEV_KEY: key } },
    );
    try {
      const url = `http://127.0.0.1:${port}/api/v1/monitors`;
      let created: { data: { id: string } } | undefined;
      for (let attempt = 0; attempt < 100 && !created; attempt++) {
        try {
          const res = await request(url, {
            method: "POST",
            headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
            body: JSON.stringify({
              name: "durable",
              type: "http",
              url: "https://example.com",
              interval_sec: 60,
            }),
          });
          const answer = (await res.body.json()) as { data: { id: string } };
          // A server still starting (or shedding load) answers, but creates nothing: ask again.
          if (res.statusCode === 201) created = answer;
          else await new Promise((r) => setTimeout(r, 100));
        } catch {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      expect(created?.data.id).toMatch(/^mon_/);
      child.kill("SIGKILL");
      await new Promise((r) => child.once("exit", r));
      const store = await Store.open(db);
      try {
        const page = await store.monitors.list((await store.keys.authenticate(key))?.accountId ?? "", { limit: 10 });
        expect(page.items.map((m) => m.id)).toEqual([created?.data.id]);
      } finally {
        await store.close();
      }
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
    }
  });
});
