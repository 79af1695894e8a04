import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { toMonitorSpec } from "../../../api";
import { Store } from "../../../server/index";
import { PAGE_TABLES } from "../../../server/store/page-changes";
import { ENGINES, freshDatabase } from "../../support/store-engines";

/** What replicas on one PostgreSQL database tell each other of a batch of checks. */
describe.runIf(ENGINES.includes("postgres"))("announcements of recorded checks (postgres)", () => {
  const open: { end(): Promise<void> }[] = [];
  afterEach(async () => {
    for (const o of open.splice(0)) await o.end();
  });

  it("announce a batch of checks once, as its monitors' rows, and the other replica follows each monitor", async () => {
    const { db, secretKeyFile } = await freshDatabase("postgres");
    const [a, b] = [await Store.open(db, { secretKeyFile }), await Store.open(db, { secretKeyFile })];
    open.push({ end: () => a.close() }, { end: () => b.close() });
    const { key } = await a.keys.create("acme", null);
    const accountId = (await a.keys.authenticate(key))?.accountId as string;
    const ids: string[] = [];
    for (const name of ["x", "y", "z"])
      ids.push(
        (
          await a.monitors.create(
            accountId,
            toMonitorSpec({ name, type: "http", url: "https://x.example", interval_sec: 60 }),
          )
        ).id,
      );
    // What B's status pages are told, by table ("*": every page).
    const told = new Map<string, Set<string>>();
    b.commits.subscribe(
      PAGE_TABLES,
      () => told.set("*", new Set()),
      (id, table) => told.set(table, new Set([...(told.get(table) ?? []), id])),
    );
    const payloads: string[] = [];
    const raw = new pg.Client({ connectionString: db });
    await raw.connect();
    open.push(raw);
    await raw.query("LISTEN uptime_commits");
    raw.on("notification", (m) => payloads.push(m.payload ?? ""));

    const at = Date.now();
    await a.recordChecks(
      ids.map((monitorId) => ({
        monitorId,
        at,
        outcome: { up: false, response_time_ms: 10, status_code: 503, error: "x" },
      })),
    );
    for (let i = 0; i < 50 && (payloads.length === 0 || (told.get("monitors")?.size ?? 0) < ids.length); i++)
      await new Promise((r) => setTimeout(r, 100));

    // B learned of each monitor as a change of that monitor, not of every page.
    expect([...(told.get("monitors") ?? [])].sort()).toEqual([...ids].sort());
    expect(told.has("*")).toBe(false);
    // One entry for the batch, its monitors' rows: the heartbeats, roll-ups and streaks are theirs.
    const entries = payloads.flatMap((p) => p.split(" ")[1]?.split(",") ?? []);
    expect(entries.map((e) => e.split("=")[0])).toEqual(["monitors"]);
  });
});
