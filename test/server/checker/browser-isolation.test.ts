import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBrowserTools } from "../../support/browser-tools";
import { startServer, type TestServer } from "../../support/server";

/**
 * Browser runs share nothing: a run of one account leaves cookies, localStorage, a cached response
 * and a download behind, and the next run, of another account, finds none of them, while the first
 * run itself reads each back (so each probe is one that sees what is there).
 */
describe("browser runs are isolated from each other", () => {
  let s: TestServer;
  let site: Server;
  let url: string;
  let cachedHits = 0;
  const marker = `left-by-run-a-${Date.now()}`;
  beforeAll(async () => {
    ensureBrowserTools();
    s = await startServer();
    site = createServer((req, res) => {
      if (req.url === "/cached") {
        cachedHits++;
        res
          .writeHead(200, { "content-type": "text/plain", "cache-control": "public, max-age=3600" })
          .end("cached body");
      } else if (req.url === "/blank") {
        res.writeHead(200, { "content-type": "text/html" }).end("<p>blank</p>");
      } else if (req.url === "/download") {
        res
          .writeHead(200, {
            "content-type": "application/octet-stream",
            "content-disposition": 'attachment; filename="left.txt"',
          })
          .end(`dl-${marker}`);
      } else if (req.url !== "/") {
        res.writeHead(404).end();
      } else {
        res
          .writeHead(200, { "content-type": "text/html", "set-cookie": `${marker}=1; Max-Age=3600; Path=/` })
          .end('<a id="dl" href="/download">download</a>');
      }
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await s?.close();
    site?.close();
  });

  const run = async (script: string, key?: string) => {
    const res = await s.call(
      "POST",
      "/api/v1/monitors/test",
      { name: "isolation", type: "browser", interval_sec: 60, timeout_sec: 20, script },
      { key },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data as { status: string; error: string | null };
  };

  /** Files under the sandbox's /tmp (where Playwright keeps downloads) and job folder that hold the download's text. */
  const findMarkerFiles = `const fs = process.getBuiltinModule("node:fs");
const found = [];
const walk = (dir) => { for (const e of fs.readdirSync(dir, { withFileTypes: true })) { const p = dir + "/" + e.name; if (e.isDirectory()) walk(p); else if (e.isFile() && fs.readFileSync(p, "utf8").includes("dl-" + ${JSON.stringify(marker)})) found.push(p); } };
walk("/tmp"); walk(process.cwd());`;

  it("a second run, of another account, sees none of the first run's cookies, localStorage, cache or downloads", async () => {
    const first = await run(`await page.goto(${JSON.stringify(url)});
await page.evaluate(() => localStorage.setItem("left", ${JSON.stringify(marker)}));
const [download] = await Promise.all([page.waitForEvent("download"), page.click("#dl")]);
await download.path();
await page.evaluate(async () => { await (await fetch("/cached")).text(); await (await fetch("/cached")).text(); });
const cookies = await page.context().cookies();
if (!cookies.some((c) => c.name === ${JSON.stringify(marker)})) throw new Error("no cookie in the first run");
if ((await page.evaluate(() => localStorage.getItem("left"))) !== ${JSON.stringify(marker)}) throw new Error("no localStorage in the first run");
${findMarkerFiles}
if (found.length === 0) throw new Error("no download in the first run");`);
    expect(first).toMatchObject({ status: "up", error: null });
    // Fetched twice, answered once: the run's own cache held it.
    expect(cachedHits).toBe(1);

    const other = (await s.app.store.keys.create("isolation-other-account", null)).key;
    const second = await run(
      `await page.goto(${JSON.stringify(`${url}/blank`)});
await page.evaluate(async () => { await (await fetch("/cached")).text(); });
const cookies = await page.context().cookies();
const seen = [];
if (cookies.some((c) => c.name === ${JSON.stringify(marker)}) ) seen.push("cookie");
if (await page.evaluate(() => localStorage.getItem("left"))) seen.push("localStorage");
${findMarkerFiles}
if (found.length > 0) seen.push("download " + found.join(" "));
if (seen.length > 0) throw new Error("saw the first run's " + seen.join(", "));`,
      other,
    );
    expect(second).toMatchObject({ status: "up", error: null });
    // The cached response was fetched again: the first run's cache was not there.
    expect(cachedHits).toBe(2);
  });

  it("the compile cache every run shares is read-only: a script changes none of it, from Node or from a shell, and holds only the cache", async () => {
    // Each probe reports what it saw; the assertions below say what it must be.
    const probe = `const fs = process.getBuiltinModule("node:fs");
const cp = process.getBuiltinModule("node:child_process");
const crypto = process.getBuiltinModule("node:crypto");
const dir = process.getBuiltinModule("node:module").getCompileCacheDir();
if (!dir) throw new Error("no compile cache");
const root = dir.slice(0, dir.lastIndexOf("/"));
const files = fs.readdirSync(dir).sort();
const digest = () => crypto.createHash("sha256").update(files.map((f) => fs.readFileSync(dir + "/" + f)).join("")).digest("hex").slice(0, 16);
const before = digest();
const attempt = (what, fn) => { try { fn(); return what + ": written"; } catch (e) { return what + ": " + (e.code ?? e.status); } };
const tries = [
  attempt("node", () => fs.writeFileSync(dir + "/" + files[0], "changed")),
  attempt("node-new", () => fs.writeFileSync(dir + "/new", "new")),
  attempt("sh", () => cp.execFileSync("/bin/sh", ["-c", "echo changed > " + dir + "/" + files[0]], { stdio: "ignore" })),
  attempt("sh-rm", () => cp.execFileSync("/bin/sh", ["-c", "rm -f " + dir + "/" + files[1]], { stdio: "ignore" })),
];
throw new Error(JSON.stringify({ root, top: fs.readdirSync(root), hex: files.every((f) => /^[0-9a-f]+$/.test(f)), count: files.length, before, after: digest(), tries }));`;
    const seen = async () => {
      const result = await run(probe);
      expect(result.status).toBe("down");
      return JSON.parse((result.error ?? "").replace(/ \(script line.*$/s, "")) as {
        root: string;
        top: string[];
        hex: boolean;
        count: number;
        before: string;
        after: string;
        tries: string[];
      };
    };
    const first = await seen();
    expect(first.root).toBe("/sandbox/compile-cache");
    // Node's own folder for this Node version and its flags, holding cache files named by hash, and nothing else.
    expect(first.top).toEqual([expect.stringMatching(/^v\d+\.\d+\.\d+-/)]);
    expect(first.hex).toBe(true);
    expect(first.count).toBeGreaterThan(3);
    expect(first.tries).toEqual(["node: EROFS", "node-new: EROFS", "sh: 2", "sh-rm: 1"]);
    expect(first.after).toBe(first.before);
    // The next run finds the same files, unchanged.
    const second = await seen();
    expect(second).toEqual(first);
  });
});
