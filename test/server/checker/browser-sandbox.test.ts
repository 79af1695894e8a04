import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBrowserTools } from "../../support/browser-tools";
import { type LoginSite, startLoginSite } from "../../support/login-site";
import { startServer, type TestServer } from "../../support/server";

/**
 * A browser monitor's script is code from an API key holder: each attempt to reach what is the
 * server's is refused or killed, with a clear reason, and reaches nothing.
 */
describe("browser check sandbox", () => {
  const dir = mkdtempSync(join(tmpdir(), "browser-sandbox-"));
  const db = join(dir, "uptime.db");
  const keyFile = join(dir, "uptime.key");
  const sentinel = `sentinel-${Date.now()}`;
  let s: TestServer;
  let strict: TestServer;
  let site: LoginSite;
  beforeAll(async () => {
    ensureBrowserTools();
    process.env.UPTIME_SANDBOX_SENTINEL = sentinel;
    s = await startServer({ db, secretKeyFile: keyFile });
    strict = await startServer({ allowPrivateTargets: false });
    site = await startLoginSite();
  });
  afterAll(async () => {
    delete process.env.UPTIME_SANDBOX_SENTINEL;
    await Promise.all([s?.close(), strict?.close(), site?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });
  const run = async (server: TestServer, script: string, timeout_sec = 10) => {
    const res = await server.call("POST", "/api/v1/monitors/test", {
      name: "sandbox",
      type: "browser",
      interval_sec: 60,
      timeout_sec,
      script,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  // Processes this file's servers started (its own descendants, not another suite's running beside it)
  // whose command line matches.
  const count = (pattern: RegExp) => {
    const rows = execFileSync("ps", ["-eo", "pid=,ppid=,args="], { encoding: "utf8" })
      .split("\n")
      .map((line) => /^\s*(\d+)\s+(\d+)\s(.*)$/.exec(line))
      .filter((m) => m !== null)
      .map(([, pid, ppid, args]) => ({ pid: Number(pid), ppid: Number(ppid), args: args ?? "" }));
    const ours = new Set([process.pid]);
    for (let grew = true; grew;) {
      grew = false;
      for (const row of rows) {
        if (!ours.has(row.pid) && ours.has(row.ppid)) {
          ours.add(row.pid);
          grew = true;
        }
      }
    }
    return rows.filter((row) => ours.has(row.pid) && pattern.test(row.args)).length;
  };
  // Runners running a job; a spare (started ahead, waiting for its job) names itself otherwise.
  const runners = () => count(/^\/sandbox\/node/);
  const spares = () => count(/^uptime-browser-spare/);

  it("a script that reads the server's database file finds no such file, from Node or from the browser", async () => {
    expect(readFileSync(db).length).toBeGreaterThan(0);
    const fromNode = await run(
      s,
      `const fs = process.getBuiltinModule("node:fs");\nconst data = fs.readFileSync(${JSON.stringify(db)});\nthrow new Error("read " + data.length + " bytes");`,
    );
    expect(fromNode).toMatchObject({ status: "down" });
    expect(fromNode.error).toMatch(/^ENOENT: no such file or directory, open '.*uptime\.db' \(script line 2: /);
    const fromBrowser = await run(s, `await page.goto(${JSON.stringify(`file://${db}`)});`);
    expect(fromBrowser).toMatchObject({ status: "down", error_class: "connect" });
    expect(fromBrowser.error).toMatch(/^page\.goto: net::ERR_FILE_NOT_FOUND/);
  });

  it("a script that links its result files to files of the server's machine makes the server read neither", async () => {
    // Node's permission model refuses such links; ln, a child process, does not: the server's reads must.
    const ln = (target: string, name: string) =>
      `cp.execFileSync("/usr/bin/ln", ["-sf", ${JSON.stringify(target)}, "${name}"]);`;
    // Files of the server's machine a server that followed the links would take: a passing result and a PNG.
    const fakeResult = join(dir, "server-result.json");
    writeFileSync(
      fakeResult,
      JSON.stringify({
        up: true,
        error: null,
        timed_out: false,
        failing_line: null,
        console_errors: [],
        steps: [],
        total_ms: 1,
        screenshot: true,
        url: null,
      }),
    );
    const fakePng = join(dir, "server-image.png");
    writeFileSync(fakePng, Buffer.concat([Buffer.from("89504e470d0a1a0a", "hex"), Buffer.alloc(64)]));
    const linked = await run(
      s,
      `const cp = process.getBuiltinModule("node:child_process");\n${ln(fakeResult, "result.json")}\n${ln(fakePng, "screenshot.png")}\nprocess.exit(0);`,
    );
    expect(linked).toMatchObject({ status: "down", screenshot_png: null });
    expect(linked.error).toMatch(/^the runner ended without a result \(exit code 0\)/);
  });

  it("a script that reads the server's environment or secret-key file finds neither", async () => {
    expect(readFileSync(keyFile).length).toBeGreaterThan(0);
    const env = await run(s, `throw new Error("environment: " + Object.keys(process.env).sort().join(" "));`);
    // What bubblewrap sets, and Node's own NODE_OPTIONS carrying the permission flags to children.
    expect(env.error).toMatch(/^environment: HOME NODE_OPTIONS PATH PWD TMPDIR \(script line 1/);
    expect(JSON.stringify(env)).not.toContain(sentinel);
    const key = await run(
      s,
      `const fs = process.getBuiltinModule("node:fs");\nfs.readFileSync(${JSON.stringify(keyFile)});`,
    );
    expect(key.error).toMatch(/^ENOENT: no such file or directory, open '.*uptime\.key'/);
  });

  it("a script that opens a private address while that is not allowed is refused by the outbound policy, from the browser and from Node", async () => {
    const site2 = await startLoginSite();
    const browser = await run(strict, `await page.goto(${JSON.stringify(site2.url)});`);
    expect(browser).toMatchObject({ status: "down", error_class: "connect" });
    expect(browser.error).toMatch(
      /^127\.0\.0\.1: connection refused by the outbound policy: 127\.0\.0\.1 is not a global unicast address \(loopback\)/,
    );
    expect(browser.browser.refused).toHaveLength(1);
    // The sandbox has a network of its own: the server's loopback is not in it.
    const port = new URL(site2.url).port;
    const direct = await run(
      strict,
      `const net = process.getBuiltinModule("node:net");\nawait new Promise((resolve, reject) => net.connect(${port}, "127.0.0.1", resolve).on("error", reject));`,
    );
    expect(direct.error).toMatch(/^connect ECONNREFUSED 127\.0\.0\.1:\d+/);
    expect(site2.hits).toBe(0);
    await site2.close();
  });

  it("a script that loops forever is killed at its timeout, browser and all", async () => {
    const started = Date.now();
    const looped = await run(s, "while (true) {}", 2);
    expect(looped).toMatchObject({
      status: "down",
      error_class: "timeout",
      error: "sandbox: killed at the timeout (7 s with the browser's start)",
    });
    expect(Date.now() - started).toBeLessThan(12_000);
    expect(runners()).toBe(0);
    expect(spares()).toBeLessThanOrEqual(1);
  });

  it("a script that allocates until it hits the limit is killed at the memory limit", async () => {
    const buffers = await run(s, "const kept = [];\nwhile (true) kept.push(Buffer.alloc(64 * 1024 * 1024, 1));", 30);
    expect(buffers).toMatchObject({ status: "down" });
    expect(buffers.error).toMatch(/^sandbox: killed at the memory limit \(1024 MiB; it used \d+ MiB\)$/);
    const heap = await run(s, "const kept = [];\nwhile (true) kept.push(new Array(1e6).fill(1.5));", 30);
    expect(heap.error).toBe("sandbox: killed at the memory limit (the script's heap of 256 MiB)");
    expect(runners()).toBe(0);
  });
});
