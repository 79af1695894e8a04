// Builds the upgrade fixture: a database written by an earlier release of the reference server,
// with the answers that release gave for each object. The upgrade test opens it with the current
// server, which must migrate it and serve every object unchanged.
//
//   npm run build && node dist/scripts/upgrade-fixture.js [COMMIT] [OUT_DIR]
//
// COMMIT defaults to 0.1.0's first commit whose schema holds every object of the documented API
// (accounts and keys, monitors, channels, status pages, heartbeats with their daily roll-up),
// before secrets were sealed at rest and before external ids and the extensions' columns: the
// database that needs the most migrating. The release is built in a `git worktree` of that
// commit, with this checkout's node_modules.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { request } from "undici";
import { REPO_ROOT } from "./pulumi-engine";

const DEFAULT_COMMIT = "3dbe516f34e3b002c2f9d53650acc90e567f90e7";
/** The fixture's dev key: a test credential of a throwaway database, not a secret. */
const FIXTURE_KEY = "uk_upgrade_fixture_key_0123456789";
const DAY_MS = 86_400_000;
/** Heartbeats are stamped from this instant back, so the fixture is the same on every run. */
const EPOCH = Date.UTC(2026, 10, 20);

type Json = Record<string, unknown>;
type RecordCheck = (id: string, outcome: Json, at: number) => unknown;
/** The parts of a release's store the fixture uses. */
interface OldStore {
  recordCheck?: RecordCheck;
  heartbeats?: { recordCheck: RecordCheck };
}

/** Checks the commit out beside the repository and builds it; returns its folder. */
function buildRelease(commit: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), "uptime-release-")), "src");
  execFileSync("git", ["worktree", "add", "--detach", dir, commit], { cwd: REPO_ROOT, stdio: "inherit" });
  symlinkSync(join(REPO_ROOT, "node_modules"), join(dir, "node_modules"), "dir");
  try {
    execFileSync(join(REPO_ROOT, "node_modules/.bin/tsc"), ["-p", "tsconfig.build.json"], {
      cwd: dir,
      stdio: "inherit",
    });
  } catch {
    // Type errors against today's dependencies still emit JavaScript; a missing server fails below.
  }
  if (!existsSync(join(dir, "dist/server/index.js"))) throw new Error(`${commit} did not build a server`);
  return dir;
}

/** Creates one of each kind through the release's own API, and some history. */
async function seed(url: string, store: OldStore): Promise<void> {
  // Checks were recorded by the heartbeat repository then, by the store later.
  const record = (id: unknown, outcome: Json, at: number) =>
    store.recordCheck
      ? store.recordCheck(id as string, outcome, at)
      : store.heartbeats?.recordCheck(id as string, outcome, at);
  const call = async (method: string, path: string, body?: unknown): Promise<Json> => {
    const res = await request(`${url}${path}`, {
      method: method as "POST",
      headers: { authorization: `Bearer ${FIXTURE_KEY}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await res.body.json()) as { data: Json };
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${JSON.stringify(answer)}`);
    return answer.data;
  };
  const hook = await call("POST", "/api/v1/channels", {
    name: "Ops webhook",
    type: "webhook",
    config: { url: "https://hooks.example.com/uptime?token=t0ken", secret: "webhook-signing-secret-0123" },
  });
  const mail = await call("POST", "/api/v1/channels", {
    name: "On call",
    type: "email",
    config: { address: "oncall@example.com" },
  });
  const api = await call("POST", "/api/v1/monitors", {
    name: "API",
    type: "http",
    url: "https://api.example.com/health",
    interval_sec: 60,
    channel_ids: [hook.id, mail.id],
  });
  const shop = await call("POST", "/api/v1/monitors", {
    name: "Shop",
    type: "keyword",
    url: "https://shop.example.com/",
    keyword: "Add to cart",
    interval_sec: 300,
    channel_ids: [hook.id],
  });
  const db = await call("POST", "/api/v1/monitors", {
    name: "Database",
    type: "tcp",
    url: "tcp://db.example.com:5432",
    interval_sec: 120,
  });
  await call("POST", `/api/v1/monitors/${db.id}/pause`);
  await call("POST", "/api/v1/status-pages", {
    slug: "acme",
    title: "Acme status",
    description: "Public services",
    monitor_ids: [api.id, shop.id],
  });
  for (let i = 0; i < 96; i++) {
    const at = EPOCH - 2 * DAY_MS + i * 1_800_000;
    const up = i < 60 || i > 64;
    record(
      api.id,
      {
        up,
        response_time_ms: up ? 80 + (i % 7) : null,
        status_code: up ? 200 : 503,
        error: up ? null : "unexpected status 503",
      },
      at,
    );
    record(shop.id, { up: true, response_time_ms: 150, status_code: 200, error: null }, at);
  }
}

/** Every object as the release serves it: what the current server must serve unchanged. */
async function answers(url: string): Promise<Json> {
  const get = async (path: string) => {
    const res = await request(`${url}${path}`, { headers: { authorization: `Bearer ${FIXTURE_KEY}` } });
    return ((await res.body.json()) as { data: Json }).data;
  };
  const list = async (kind: string) => (await get(`/api/v1/${kind}?limit=100`)) as unknown as Json[];
  const out: Json = {};
  for (const kind of ["monitors", "channels", "status-pages"]) {
    out[kind] = await Promise.all((await list(kind)).map((o) => get(`/api/v1/${kind}/${o.id as string}`)));
  }
  return out;
}

async function main(commit = DEFAULT_COMMIT, outDir = join(REPO_ROOT, "test/fixtures/upgrade/0.1.0")): Promise<void> {
  const release = buildRelease(commit);
  try {
    const out = resolve(outDir);
    mkdirSync(out, { recursive: true });
    const dbFile = join(out, "uptime.db");
    for (const f of [dbFile, `${dbFile}-wal`, `${dbFile}-shm`, `${dbFile}.key`]) rmSync(f, { force: true });
    const { buildApp } = require(join(release, "dist/server/index.js"));
    const app = await buildApp({ db: dbFile, devKey: FIXTURE_KEY, logger: false, checker: false });
    const url = await app.listen({ port: 0, host: "127.0.0.1" });
    try {
      await seed(url, app.store);
    } catch (err) {
      await app.close();
      throw err;
    }
    const served = await answers(url);
    await app.close();
    const db = new DatabaseSync(dbFile, { readOnly: true });
    const { n: heartbeats } = db.prepare("SELECT COUNT(*) AS n FROM heartbeats").get() as { n: number };
    db.close();
    for (const f of [`${dbFile}-wal`, `${dbFile}-shm`]) rmSync(f, { force: true });
    writeFileSync(
      join(out, "expected.json"),
      `${JSON.stringify({ commit, devKey: FIXTURE_KEY, heartbeats, served }, null, 2)}\n`,
    );
    process.stderr.write(`Wrote ${dbFile} and expected.json from ${commit}.\n`);
  } finally {
    execFileSync("git", ["worktree", "remove", "--force", release], { cwd: REPO_ROOT, stdio: "inherit" });
  }
}

main(process.argv[2], process.argv[3]).catch((err: Error) => {
  process.stderr.write(`upgrade-fixture: ${err.stack ?? err.message}\n`);
  process.exit(1);
});
