import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { type PrivatePostgres, startPostgres } from "../../../scripts/private-postgres";
import { newKey } from "../../support/server";
import { eventually } from "../../support/target";
import { type Served, serveProcess } from "./serve";

/** How long another replica may serve the monitor as it was after a write was committed (the announcement's way). */
const BOUND_MS = 3_000;

const dir = mkdtempSync(join(tmpdir(), "uptime-read-cache-"));
let postgres: PrivatePostgres | undefined;
const servers: Served[] = [];
afterAll(async () => {
  for (const s of servers) {
    if (s.child.exitCode !== null || s.child.signalCode !== null) continue;
    s.child.kill("SIGTERM");
    await once(s.child, "exit");
  }
  postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** The monitor as `server` answers it now. */
async function read(
  server: Served,
  id: string,
): Promise<{ name: string; status: string; health: string; last_checked_at: string | null }> {
  const res = await server.call("GET", `/api/v1/monitors/${id}`);
  expect(res.status, res.body).toBe(200);
  return JSON.parse(res.body).data;
}

/** Reads on `server` until `fresh` holds, within the bound; then it must keep holding (nothing older comes back). */
async function seenWithin(
  server: Served,
  id: string,
  fresh: (m: Awaited<ReturnType<typeof read>>) => boolean,
  what: string,
): Promise<void> {
  const from = Date.now();
  while (!fresh(await read(server, id))) {
    if (Date.now() - from > BOUND_MS) throw new Error(`${what}: not read on the other replica within ${BOUND_MS} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
  for (let i = 0; i < 5; i++) expect(fresh(await read(server, id)), `${what}: an older monitor read again`).toBe(true);
}

describe("two replicas on one PostgreSQL, reading monitors from their caches", () => {
  it("read a write committed on the other replica within a bounded wait, their own write at once, and checks recorded by either", async () => {
    postgres = await startPostgres();
    const db = await postgres.createDatabase();
    const key = newKey();
    const target = createServer((_req, res) => res.writeHead(200).end("ok"));
    target.listen(0, "127.0.0.1");
    await once(target, "listening");
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const args = ["--secret-key-file", join(dir, "secret.key"), "--rate-limit", "100000", "--min-interval-sec", "1"];
    try {
      const a = await serveProcess(db, key, args);
      servers.push(a);
      const b = await serveProcess(db, key, args);
      servers.push(b);
      // A monitor checked every two seconds (by one replica or the other), and one no replica checks (paused).
      const first = await a.call("POST", "/api/v1/monitors", {
        name: "checked",
        type: "http",
        url,
        interval_sec: 2,
        timeout_sec: 1,
      });
      expect(first.status, first.body).toBe(201);
      const checked = JSON.parse(first.body).data.id as string;
      const created = await a.call("POST", "/api/v1/monitors", { name: "v0", type: "http", url, interval_sec: 60 });
      expect(created.status, created.body).toBe(201);
      const id = JSON.parse(created.body).data.id as string;
      await a.call("POST", `/api/v1/monitors/${id}/pause`);

      for (let round = 1; round <= 6; round++) {
        const [writer, other] = round % 2 === 1 ? [a, b] : [b, a];
        // Both replicas hold the monitor in their caches before the write.
        await read(writer, id);
        await read(other, id);
        const patched = await writer.call("PATCH", `/api/v1/monitors/${id}`, { name: `v${round}` });
        expect(patched.status, patched.body).toBe(200);
        expect((await read(writer, id)).name).toBe(`v${round}`);
        await seenWithin(other, id, (m) => m.name === `v${round}`, `round ${round}'s rename`);
        // Pause and resume write the monitor's row alone (announced as that row).
        const status = round % 2 === 1 ? "active" : "paused";
        const changed = await writer.call("POST", `/api/v1/monitors/${id}/${status === "active" ? "resume" : "pause"}`);
        expect(changed.status, changed.body).toBe(200);
        expect((await read(writer, id)).status).toBe(status);
        await seenWithin(other, id, (m) => m.status === status, `round ${round}'s ${status}`);
      }

      // Each check of the checked monitor writes its row on whichever replica ran it: once
      // committed, both read it (or a later one) within the bound.
      const direct = new pg.Client({ connectionString: db });
      await direct.connect();
      try {
        const stored = async () =>
          (
            (await direct.query("SELECT last_checked_at FROM monitors WHERE id = $1", [checked])).rows[0] as {
              last_checked_at: string | null;
            }
          ).last_checked_at;
        let previous = await stored();
        for (let i = 0; i < 4; i++) {
          const recorded = await eventually(async () => {
            const now = await stored();
            return now !== null && now !== previous && now;
          }, 20_000);
          previous = recorded;
          for (const s of [a, b])
            await seenWithin(
              s,
              checked,
              (m) => m.health === "up" && Date.parse(m.last_checked_at ?? "") >= Date.parse(recorded),
              `check ${i}`,
            );
        }
      } finally {
        await direct.end();
      }
    } finally {
      target.close();
    }
  }, 180_000);
});
