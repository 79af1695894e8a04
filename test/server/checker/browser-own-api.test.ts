import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ensureBrowserTools } from "../../support/browser-tools";
import { type LoginSite, startLoginSite } from "../../support/login-site";
import { newKey, startServer, type TestServer } from "../../support/server";
import { type Served, serveProcess } from "../replicas/serve";
import { agentCli, agentKeyFile, locationLive } from "../../support/agent-location";

/**
 * A browser script never reaches the uptime server's own API, even with --allow-private-targets
 * (which lets it reach the rest of this machine): the policy proxy refuses the server's listening
 * port on every address of this machine. The server as `uptime-server serve` runs it.
 */
describe("browser scripts and the server's own API", () => {
  const dir = mkdtempSync(join(tmpdir(), "browser-own-api-"));
  let served: Served;
  let site: LoginSite;
  beforeAll(async () => {
    ensureBrowserTools();
    served = await serveProcess(join(dir, "uptime.db"), newKey());
    site = await startLoginSite();
  });
  afterAll(async () => {
    served?.child.kill("SIGTERM");
    await new Promise((resolve) =>
      served?.child.exitCode !== null ? resolve(undefined) : served.child.once("exit", resolve),
    );
    await site?.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const run = async (script: string) => {
    const res = await served.call("POST", "/api/v1/monitors/test", {
      name: "own",
      type: "browser",
      interval_sec: 60,
      timeout_sec: 15,
      script,
    });
    expect(res.status, res.body).toBe(200);
    return JSON.parse(res.body).data as {
      status: string;
      error: string;
      error_class: string;
      browser: { refused: string[] };
    };
  };

  it("page.goto of the server's own API is refused, by address or by name", async () => {
    const port = new URL(served.url).port;
    for (const host of ["127.0.0.1", "localhost"]) {
      const out = await run(
        `const answer = await page.goto("http://${host}:${port}/api/v1/openapi.json");\nthrow new Error("reached it: " + answer.status());`,
      );
      expect(out, JSON.stringify(out)).toMatchObject({ status: "down", error_class: "connect" });
      expect(out.error).toMatch(
        new RegExp(
          `^${host}: connection refused: 127\\.0\\.0\\.1:${port} is the uptime server's own API, which browser scripts never reach`,
        ),
      );
      expect(out.browser.refused).toHaveLength(1);
    }
  });

  it("a fetch from the page to the API is refused too, while another service on this machine stays reachable", async () => {
    const port = new URL(served.url).port;
    const fetched = await run(
      `await page.goto(${JSON.stringify(site.url)});\nconst status = await page.evaluate(() => fetch("http://127.0.0.1:${port}/healthz").then((r) => r.status, (e) => String(e)));\nthrow new Error("fetch: " + status);`,
    );
    expect(fetched.status).toBe("down");
    expect(fetched.browser.refused).toEqual([
      expect.stringContaining(`127.0.0.1:${port} is the uptime server's own API`),
    ]);
    const other = await run(`await page.goto(${JSON.stringify(site.url)});`);
    expect(other, JSON.stringify(other)).toMatchObject({ status: "up" });
  });
});

/** An agent on the server's machine keeps its browser scripts off the server it reports to. */
describe("browser scripts at an agent and the server it reports to", () => {
  const dir = mkdtempSync(join(tmpdir(), "browser-own-api-agent-"));
  let s: TestServer;
  let agent: ChildProcess;
  beforeAll(async () => {
    ensureBrowserTools();
    // The server refuses loopback itself: the refusal naming its API can only come from the agent.
    s = await startServer({ checker: true, agentLiveMs: 5_000, allowPrivateTargets: false });
    const keyFile = await agentKeyFile(s, dir, "lab");
    agent = spawn(process.execPath, agentCli(s.url, "lab", keyFile, ["--allow-private-targets"]), { stdio: "ignore" });
    await locationLive(s, "lab");
  });
  afterAll(async () => {
    agent?.kill("SIGKILL");
    await s?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("page.goto of the server's API from a script the agent runs is refused", async () => {
    const port = new URL(s.url).port;
    const res = await s.call("POST", "/api/v1/monitors/test?location=lab", {
      name: "own",
      type: "browser",
      interval_sec: 60,
      timeout_sec: 15,
      script: `await page.goto("http://127.0.0.1:${port}/api/v1/openapi.json");`,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data, JSON.stringify(res.body.data).slice(0, 1500)).toMatchObject({
      status: "down",
      error_class: "connect",
    });
    expect(res.body.data.error).toMatch(
      new RegExp(`^127\\.0\\.0\\.1: connection refused: 127\\.0\\.0\\.1:${port} is the uptime server's own API`),
    );
  });
});
