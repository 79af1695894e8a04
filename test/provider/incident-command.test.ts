import { execFile } from "node:child_process";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { startServer, type TestServer, httpMonitorId } from "../support/server";

describe("pulumi-uptime incident", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
    const mon = await httpMonitorId(s, "api", "https://example.com/");
    await s.call("POST", "/api/v1/status-pages", {
      slug: "cli-page",
      title: "CLI",
      sections: [{ name: "Core", components: [{ key: "api", name: "API", monitors: [mon] }] }],
    });
  });
  afterAll(async () => await s?.close());

  /** The command as a user runs it: a separate process, connected by UPTIME_API_URL and UPTIME_API_KEY. */
  const run = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(
        join(REPO_ROOT, "node_modules/.bin/node"),
        [join(REPO_ROOT, "dist/provider/commands/cli.js"), "incident", ...args],
        {
          env: { ...process.env, UPTIME_API_URL: s.url, UPTIME_API_KEY: s.key },
          timeout: 60_000,
        },
        (err, stdout, stderr) =>
          resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
    });

  it("opens, updates, lists and resolves an incident of a page named by its slug", async () => {
    const opened = await run([
      "open",
      "--page",
      "cli-page",
      "--title",
      "API errors",
      "--message",
      "Looking into it",
      "--component",
      "api=partial-outage",
      "--json",
    ]);
    expect(opened.code).toBe(0);
    const incident = JSON.parse(opened.stdout) as { id: string; state: string; components: Record<string, string> };
    expect(incident).toMatchObject({ state: "investigating", components: { api: "partial-outage" } });
    const updated = await run([
      "update",
      "--page",
      "cli-page",
      "--id",
      incident.id,
      "--state",
      "identified",
      "--message",
      "Bad deploy",
    ]);
    expect(updated.stdout, updated.stderr).toMatch(/identified\s+API errors/);
    expect((await run(["list", "--page", "cli-page", "--which", "open"])).stdout).toContain(incident.id);
    expect((await run(["resolve", "--page", "cli-page", "--id", incident.id])).code).toBe(0);
    expect((await run(["list", "--page", "cli-page", "--which", "open"])).stdout).toBe("No incidents.\n");
  });

  it("names the flag that is wrong", async () => {
    const bad = await run([
      "open",
      "--page",
      "cli-page",
      "--title",
      "x",
      "--message",
      "y",
      "--component",
      "api=broken",
    ]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/--component api=broken: must be KEY=IMPACT/);
    expect((await run(["open", "--page", "nope-page", "--title", "x", "--message", "y"])).stderr).toMatch(
      /--page nope-page: no status page/,
    );
  });
});
