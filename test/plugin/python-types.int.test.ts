import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundlePlugin } from "../../plugin/build/bundle";
import { mypyWith } from "../../plugin/build/python";
import { buildSdks } from "../../plugin/build/sdks";

const PROGRAM = join(__dirname, "..", "engine", "programs", "native-python", "__main__.py");

describe("the generated Python SDK's types, checked by mypy", () => {
  let dir: string;
  let python: string;
  const check = (file: string) => {
    const run = spawnSync(python, ["-m", "mypy", "--no-incremental", "--no-error-summary", file], {
      encoding: "utf8",
      cwd: dir,
    });
    return { code: run.status, output: `${run.stdout}${run.stderr}` };
  };

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "pulumi-uptime-mypy-"));
    python = await mypyWith((await buildSdks(await bundlePlugin(join(dir, "plugin")))).wheel);
  }, 900_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("accept the Python program the engine tests deploy (enums, object types, functions)", () => {
    const result = check(PROGRAM);
    expect(result.output).toBe("");
    expect(result.code).toBe(0);
  }, 120_000);

  it("type the ping, smtp and domain monitors' own fields", () => {
    const file = join(dir, "network.py");
    writeFileSync(
      file,
      [
        "import pulumi_uptime as uptime",
        'uptime.Monitor("p", uptime.MonitorArgs(type=uptime.MonitorType.PING, url="ping://gw.example.com", interval_sec=60, ping_count=3))',
        'uptime.Monitor("s", uptime.MonitorArgs(type=uptime.MonitorType.SMTP, url="smtp://mx.example.com", interval_sec=60, smtp_starttls=True, ssl_expiry_days=14))',
        'uptime.Monitor("d", uptime.MonitorArgs(type=uptime.MonitorType.DOMAIN, url="domain://example.com", interval_sec=3600, domain_expiry_days=30))',
        'uptime.Monitor("x", uptime.MonitorArgs(type=uptime.MonitorType.PING, url="ping://gw.example.com", interval_sec=60, ping_count="three"))',
        "",
      ].join("\n"),
    );
    const result = check(file);
    expect(result.output.trim().split("\n")).toEqual([
      expect.stringMatching(/network\.py:5: error: Argument "ping_count" to "MonitorArgs" has incompatible type "str"/),
    ]);
  }, 120_000);

  it("reject a value of the wrong type before any deployment, naming the argument", () => {
    const bad = join(dir, "bad.py");
    writeFileSync(
      bad,
      [
        "import pulumi_uptime as uptime",
        'uptime.Monitor("m", uptime.MonitorArgs(type=uptime.MonitorType.HTTP, url="https://example.com/", interval_sec="sixty"))',
        'uptime.Channel("c", uptime.ChannelArgs(type=uptime.ChannelType.WEBHOOK, config=uptime.ChannelConfigArgs(webhook=uptime.WebhookConfigArgs(url=5))))',
        'uptime.AssertionArgs(source="jsonbody", comparison=uptime.AssertionComparison.EQUALS)',
        "",
      ].join("\n"),
    );
    const result = check(bad);
    expect(result.code).toBe(1);
    expect(result.output).toMatch(
      /bad\.py:2: error: Argument "interval_sec" to "MonitorArgs" has incompatible type "str"/,
    );
    expect(result.output).toMatch(
      /bad\.py:3: error: Argument "url" to "WebhookConfigArgs" has incompatible type "int"/,
    );
    expect(result.output).toMatch(
      /bad\.py:4: error: Argument "source" to "AssertionArgs" has incompatible type "str"; expected "AssertionSource/,
    );
  }, 120_000);
});
