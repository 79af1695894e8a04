import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { UptimeClient } from "../../../provider/client/client";
import { type PrivatePostgres, startPostgres } from "../../../scripts/private-postgres";
import { newKey } from "../../support/server";
import { type Served, serveProcess } from "./serve";

/** Concurrent writers of keyed creates: each has one create in flight when the process is killed. */
const WRITERS = 24;
/** Creates answered before the kill (the burst is well under way). */
const ANSWERED_BEFORE_KILL = 120;
/** The promise: a retry of a cut-off create is answered (201, run once or replayed) within this. */
const BOUND_MS = 10_000;
/** How long a retry keeps trying past the bound: long enough to see what an older server did (409 for 120 s, then a second object). */
const GIVE_UP_MS = 150_000;

const dir = mkdtempSync(join(tmpdir(), "uptime-idem-failover-"));
let postgres: PrivatePostgres | undefined;
afterAll(() => {
  postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
});

interface Create {
  key: string;
  body: { name: string; type: "heartbeat"; interval_sec: number };
}

/** What a burst of keyed creates got: the ids answered 201 by key, the creates cut off, and anything refused. */
interface Burst {
  answered: Map<string, string>;
  cutOff: Create[];
  refused: string[];
}

/** Keyed monitor creates through `server` from WRITERS writers, until the process is gone (`out` fills as they go). */
async function burst(server: Served, out: Burst): Promise<void> {
  const { answered, cutOff, refused } = out;
  await Promise.all(
    Array.from({ length: WRITERS }, async (_, w) => {
      for (let i = 0; ; i++) {
        const create: Create = {
          key: `burst-${w}-${i}`,
          body: { name: `burst-${w}-${i}`, type: "heartbeat", interval_sec: 60 },
        };
        try {
          const res = await server.call("POST", "/api/v1/monitors", create.body, { "idempotency-key": create.key });
          if (res.status === 201) answered.set(create.key, JSON.parse(res.body).data.id);
          else refused.push(`${create.key}: ${res.status} ${res.body}`);
        } catch {
          cutOff.push(create);
          return; // the process is gone
        }
      }
    }),
  );
}

/** Resolves once `check()` holds, polling every 20 ms (at most `ms`). */
async function until(check: () => boolean, ms: number): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`not reached within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Sends `create` again to `server` until it is answered 201 (a 409 in progress is retried every 200 ms): the answer and when it came. */
async function retry(
  server: Served,
  create: Create,
  from: number,
): Promise<{ id: string; replayed: boolean; ms: number; inProgress: number } | { failed: string }> {
  let inProgress = 0;
  for (;;) {
    const res = await server.call("POST", "/api/v1/monitors", create.body, { "idempotency-key": create.key });
    if (res.status === 201)
      return {
        id: JSON.parse(res.body).data.id,
        replayed: res.headers["idempotent-replayed"] === "true",
        ms: Date.now() - from,
        inProgress,
      };
    if (res.status !== 409 || Date.now() - from > GIVE_UP_MS)
      return { failed: `${create.key}: ${res.status} ${res.body}` };
    inProgress++;
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Every monitor's name, page by page. */
async function monitorNames(server: Served): Promise<Map<string, string[]>> {
  const byName = new Map<string, string[]>();
  let cursor: string | null = null;
  do {
    const page = JSON.parse(
      (await server.call("GET", `/api/v1/monitors?limit=200${cursor ? `&cursor=${cursor}` : ""}`)).body,
    ) as { data: { id: string; name: string }[]; next_cursor: string | null };
    for (const m of page.data) byName.set(m.name, [...(byName.get(m.name) ?? []), m.id]);
    cursor = page.next_cursor;
  } while (cursor);
  return byName;
}

describe("a keyed create cut off by a killed process", () => {
  it.each(["postgres", "sqlite"] as const)(
    "(%s) is created once when retried, each retry answered within the bound",
    async (engine) => {
      const key = newKey();
      let db: string;
      let args: string[];
      if (engine === "postgres") {
        postgres = await startPostgres();
        db = await postgres.createDatabase();
        args = ["--secret-key-file", join(dir, "secret.key"), "--rate-limit", "100000"];
      } else {
        db = join(dir, "uptime.db");
        args = ["--rate-limit", "100000"];
      }
      const servers: Served[] = [];
      const start = async () => {
        const s = await serveProcess(db, key, args);
        servers.push(s);
        return s;
      };
      try {
        // PostgreSQL: the other replica is up before the kill; SQLite: the process restarts on the
        // same file. One after the other: the first stores the dev key.
        const first = await start();
        const other = engine === "postgres" ? await start() : undefined;
        const out: Burst = { answered: new Map(), cutOff: [], refused: [] };
        const { answered, cutOff, refused } = out;
        const writers = burst(first, out);
        await until(() => answered.size >= ANSWERED_BEFORE_KILL, 120_000);
        first.child.kill("SIGKILL");
        await once(first.child, "exit");
        await writers;
        const survivor = other ?? (await start());
        const from = Date.now();
        const retries = await Promise.all(cutOff.map((c) => retry(survivor, c, from)));

        // The provider's client, with the same keys: the answer is replayed, the same monitor.
        const client = new UptimeClient({ baseUrl: survivor.url, apiKey: key } as never, {
          requestsPerMinute: 100_000,
        });
        const viaClient = await Promise.all(
          cutOff.map((c) =>
            client.request<{ id: string }>("POST", "/api/v1/monitors", { body: c.body, idempotencyKey: c.key }),
          ),
        );

        const byName = await monitorNames(survivor);
        const duplicates = [...byName]
          .filter(([, ids]) => ids.length > 1)
          .map(([name, ids]) => `${name}: ${ids.join(", ")}`);
        const failed = retries.flatMap((r) => ("failed" in r ? [r.failed] : []));
        const done = retries.flatMap((r) => ("failed" in r ? [] : [r]));
        const worst = Math.max(0, ...done.map((r) => r.ms));
        const late = done.filter((r) => r.ms > BOUND_MS).length;
        console.log(
          `${engine}: ${answered.size} creates answered before the kill, ${cutOff.length} cut off; their retries: ${done.filter((r) => r.replayed).length} replayed, ` +
            `${done.filter((r) => !r.replayed).length} run, ${failed.length} failed, ${done.reduce((n, r) => n + r.inProgress, 0)} answers 409 in progress, ` +
            `slowest ${worst} ms, ${late} past ${BOUND_MS} ms; ${duplicates.length} names with more than one monitor`,
        );
        expect(refused).toEqual([]);
        expect(cutOff.length).toBeGreaterThan(WRITERS / 2);
        expect(failed).toEqual([]);
        expect(duplicates).toEqual([]);
        expect(late).toBe(0);
        // Each key made one monitor: the retry's answer names it, and so does the client's replay.
        cutOff.forEach((c, i) => {
          const r = retries[i] as { id: string };
          expect(byName.get(c.body.name)).toEqual([r.id]);
          expect(viaClient[i]).toMatchObject({ data: { id: r.id }, replayed: true });
        });
        // No create answered before the kill was lost, or made twice.
        for (const [name, id] of answered) expect(byName.get(name)).toEqual([id]);
      } finally {
        for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill("SIGKILL");
      }
    },
    420_000,
  );
});
