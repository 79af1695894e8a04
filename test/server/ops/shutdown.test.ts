import { once } from "node:events";
import { createServer } from "node:http";
import { mkdtempSync, rmSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { request } from "undici";
import { afterAll, describe, expect, it } from "vitest";
import { Store } from "../../../server/index";
import { newKey } from "../../support/server";
import { eventually } from "../../support/target";
import { serveProcess } from "../replicas/serve";

const dir = mkdtempSync(join(tmpdir(), "uptime-sigterm-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A target that answers after `delayMs` and counts the probes that reached it: checks started. */
async function slowTarget(delayMs: number) {
  const started: string[] = [];
  const server = createServer((req, res) => {
    started.push(req.url ?? "");
    setTimeout(() => res.writeHead(200).end("ok"), delayMs);
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    started,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The server under test checks every second and gives its work 15 s to finish on SIGTERM. */
const SERVE_ARGS = ["--min-interval-sec", "1", "--shutdown-timeout-sec", "15"];

describe("SIGTERM", () => {
  it("under write load: every answered write and every started check is in the database afterwards, and the process exits 0 in time", async () => {
    const db = join(dir, "load.db");
    const key = newKey();
    const target = await slowTarget(400);
    const { child, url, log } = await serveProcess(db, key, SERVE_ARGS);
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await request(`${url}${path}`, {
        method: method as "POST",
        headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.statusCode, body: (await res.body.text()) || "{}" };
    };
    try {
      for (let i = 0; i < 8; i++) {
        const res = await call("POST", "/api/v1/monitors", {
          name: `m${i}`,
          type: "http",
          url: `${target.url}/m${i}`,
          interval_sec: 2,
          timeout_sec: 1,
        });
        expect(res.status, res.body).toBe(201);
      }
      await eventually(async () => target.started.length >= 8);
      const accepted: string[] = [];
      let writing = true;
      const writer = async () => {
        for (let i = 0; writing; i++) {
          try {
            const res = await call("POST", "/api/v1/channels", {
              name: `c${i}`,
              type: "webhook",
              config: { url: "https://example.com/hook" },
            });
            if (res.status === 201) accepted.push(JSON.parse(res.body).data.id);
          } catch {
            return; // the server stopped listening
          }
        }
      };
      const writers = Promise.all([writer(), writer(), writer(), writer()]);
      await new Promise((r) => setTimeout(r, 1500));
      const sentAt = Date.now();
      child.kill("SIGTERM");
      const [code] = await once(child, "exit");
      const tookMs = Date.now() - sentAt;
      writing = false;
      await writers;

      expect(code, log()).toBe(0);
      expect(tookMs).toBeLessThan(15_000);
      expect(accepted.length).toBeGreaterThan(10);
      expect(log()).toContain("shutting down");
      const store = await Store.open(db);
      try {
        const channels = new Set(
          ((await store.db.prepare("SELECT id FROM channels").all()) as { id: string }[]).map((r) => r.id),
        );
        expect(accepted.filter((id) => !channels.has(id))).toEqual([]);
        const heartbeats = ((await store.db.prepare("SELECT COUNT(*) AS n FROM heartbeats").get()) as { n: number }).n;
        // Each probe that reached the target is a started check; each one was recorded.
        expect(heartbeats).toBe(target.started.length);
        expect(
          ((await store.db.prepare("PRAGMA integrity_check").get()) as { integrity_check: string }).integrity_check,
        ).toBe("ok");
      } finally {
        await store.close();
      }
    } finally {
      if (child.exitCode === null) child.kill("SIGKILL");
      await target.close();
    }
  });
});
