import { spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Cache = typeof import("../../scripts/cache.mjs", { with: { "resolution-mode": "import" } });
let cache: Cache;
beforeAll(async () => {
  cache = await import("../../scripts/cache.mjs");
});

const CACHE_MODULE = pathToFileURL(join(__dirname, "..", "..", "scripts", "cache.mjs")).href;
const root = mkdtempSync(join(tmpdir(), "uptime-cache-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/**
 * A separate Node process that wants the entry `dir`: its build takes a second (long enough for
 * the others to arrive meanwhile) and appends its pid to `builds.log` beside the entry.
 */
async function wantEntry(dir: string, inPlace: boolean): Promise<{ code: number | null; stderr: string }> {
  const script = `
    import { appendFileSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
    import { join } from "node:path";
    import { buildOnce } from ${JSON.stringify(CACHE_MODULE)};
    const dir = ${JSON.stringify(dir)};
    await buildOnce(dir, () => existsSync(join(dir, "done")), async (into) => {
      appendFileSync(dir + ".builds.log", process.pid + "\\n");
      mkdirSync(into, { recursive: true });
      writeFileSync(join(into, "half"), "");
      await new Promise((r) => setTimeout(r, 1000));
      writeFileSync(join(into, "done"), String(process.pid));
    }, { inPlace: ${inPlace} });
    if (!existsSync(join(dir, "done"))) throw new Error("entry missing after buildOnce");
  `;
  const child = spawn(process.execPath, ["--input-type=module", "-e", script], { stdio: ["ignore", "ignore", "pipe"] });
  let stderr = "";
  child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
  const [code] = (await once(child, "exit")) as [number | null];
  return { code, stderr };
}

describe("the project's build cache (scripts/cache.mjs)", () => {
  for (const inPlace of [false, true]) {
    it(`builds an entry once when three processes want it at the same time${inPlace ? " (in place, as a venv)" : ""}`, async () => {
      const dir = join(root, inPlace ? "venv" : "entry");
      const results = await Promise.all([wantEntry(dir, inPlace), wantEntry(dir, inPlace), wantEntry(dir, inPlace)]);
      for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0 });
      expect(readFileSync(`${dir}.builds.log`, "utf8").trim().split("\n")).toHaveLength(1);
      // No staging folder or lock is left beside the entry.
      expect(
        readdirSync(root)
          .filter((f) => f.startsWith(inPlace ? "venv" : "entry"))
          .sort(),
      ).toEqual([inPlace ? "venv" : "entry", `${inPlace ? "venv" : "entry"}.builds.log`].sort());
    }, 60_000);
  }

  it("builds again an entry whose build was interrupted, and reports a build that fails", async () => {
    const dir = join(root, "failing");
    await expect(
      cache.buildOnce(
        dir,
        () => existsSync(join(dir, "done")),
        () => Promise.reject(new Error("compiler crashed")),
      ),
    ).rejects.toThrow("compiler crashed");
    expect(existsSync(`${dir}.lock`)).toBe(false);
    await cache.buildOnce(
      dir,
      () => existsSync(join(dir, "done")),
      async (into) => {
        await cache.run("mkdir", ["-p", into]);
        await cache.run("touch", [join(into, "done")]);
      },
    );
    expect(existsSync(join(dir, "done"))).toBe(true);
  });

  it("names the command and its error output when a command fails", async () => {
    await expect(cache.run("go", ["no-such-command"])).rejects.toThrow(
      /^go no-such-command failed:\n.*unknown command/,
    );
  });

  it("puts every cache under PULUMI_UPTIME_CACHE when it is set, Go's build cache too", () => {
    const env = { PULUMI_UPTIME_CACHE: "/c", GOCACHE: "/users/go-build", HOME: "/home/u" };
    expect(cache.cacheRoot(env)).toBe("/c");
    expect(cache.goEnv(env)).toMatchObject({ GOCACHE: "/c/go/build", GOMODCACHE: "/c/go/mod" });
    // Go's module cache (downloads checked against go.sum) may stay the user's.
    expect(cache.goEnv({ ...env, GOMODCACHE: "/users/mod" })).toMatchObject({
      GOCACHE: "/c/go/build",
      GOMODCACHE: "/users/mod",
    });
  });

  it("defaults to XDG_CACHE_HOME, then ~/.cache, and keeps the user's GOCACHE there", () => {
    expect(cache.cacheRoot({ XDG_CACHE_HOME: "/x" })).toBe("/x/pulumi-uptime");
    expect(cache.cacheRoot({})).toMatch(/\/\.cache\/pulumi-uptime$/);
    expect(cache.goEnv({ XDG_CACHE_HOME: "/x", GOCACHE: "/users/go-build" })).toMatchObject({
      GOCACHE: "/users/go-build",
      GOMODCACHE: "/x/pulumi-uptime/go/mod",
    });
  });
});
