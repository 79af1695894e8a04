import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { promisify } from "node:util";
import { join } from "node:path";
import type { ConfigMap } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { useEngine, useServer } from "../support/engine-suite";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy";
import type { TestServer } from "../support/server";

/** Runs `pulumi-uptime import` as a user would: a separate process, connection from the environment. */
async function importCommand(s: TestServer, outDir: string, ...args: string[]): Promise<string> {
  // Asynchronous: the server answers from this process.
  const { stdout } = await promisify(execFile)(
    join(REPO_ROOT, "node_modules/.bin/node"),
    [join(REPO_ROOT, "dist/provider/commands/cli.js"), "import", "--out", outDir, ...args],
    {
      env: { ...process.env, UPTIME_API_URL: s.url, UPTIME_API_KEY: s.key },
      encoding: "utf8",
    },
  );
  return stdout;
}

const SECRET = "0123456789abcdef0123";

/** A hand-made account of 28 mixed objects; returns the secret config the import asks for. */
async function seedAccount(s: TestServer): Promise<Map<string, Record<string, string>>> {
  const secrets = new Map<string, Record<string, string>>();
  const post = async (path: string, body: unknown) => {
    const res = await s.call("POST", path, body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  };
  const channel = async (name: string, type: string, config: Record<string, string>, camel: Record<string, string>) => {
    const id = await post("/api/v1/channels", { name, type, config });
    secrets.set(id, camel);
    return id;
  };
  const hook = await channel(
    "On-call",
    "webhook",
    { url: `${s.url}/hooks/tok1`, secret: SECRET },
    { url: `${s.url}/hooks/tok1`, secret: SECRET },
  );
  const hook2 = await channel(
    "On-call",
    "webhook",
    { url: "https://hooks.example.com/a?token=x" },
    { url: "https://hooks.example.com/a?token=x" },
  );
  const slack = await channel(
    "#ops alerts",
    "slack",
    { webhook_url: "https://hooks.slack.com/services/T0/B0/X" },
    { webhookUrl: "https://hooks.slack.com/services/T0/B0/X" },
  );
  const mail = await post("/api/v1/channels", {
    name: "Ops mail",
    type: "email",
    config: { address: "ops@example.com" },
  });
  const monitors: string[] = [];
  for (let i = 0; i < 18; i++) {
    const type = (["http", "keyword", "tcp"] as const)[i % 3];
    monitors.push(
      await post("/api/v1/monitors", {
        name: i % 6 === 5 ? "API" : `${["API", "Web shop", "Café ✓ (prod)", "new", "1st site", "DB"][i % 6]} ${i}`,
        type,
        url: type === "tcp" ? `tcp://db${i}.example.com:5432` : `https://svc${i}.example.com/health`,
        interval_sec: 60 + i * 30,
        ...(i % 4 === 0 ? { timeout_sec: 20 } : {}),
        ...(type === "keyword" ? { keyword: "OK", keyword_case_sensitive: i % 2 === 0 } : {}),
        ...(type === "http" && i % 2 === 0
          ? { method: "POST", body: `{"probe":${i}}`, headers: { "X-Api-Token": `t${i}`, Accept: "application/json" } }
          : {}),
        ...(type === "http" && i % 2 === 1 ? { expected_status_codes: [204, "2xx"], follow_redirects: false } : {}),
        channel_ids: [[hook], [hook, slack], [mail, hook2], []][i % 4],
        tags: i % 3 === 0 ? ["Prod", "api"] : ["staging"],
      }),
    );
  }
  // One of each protocol type, with its own fields and secrets (metadata, message, datagram).
  monitors.push(
    await post("/api/v1/monitors", {
      name: "Cart gRPC",
      type: "grpc",
      url: "grpcs://cart.example.com:443",
      grpc_service: "shop.Cart",
      headers: { authorization: "Bearer g1" },
      interval_sec: 60,
    }),
    await post("/api/v1/monitors", {
      name: "Feed socket",
      type: "websocket",
      url: "wss://feed.example.com/live",
      body: '{"subscribe":"ticks"}',
      interval_sec: 60,
      assertions: [{ source: "json_body", property: "$.type", comparison: "equals", target: "tick" }],
    }),
    await post("/api/v1/monitors", {
      name: "NTP-ish",
      type: "udp",
      url: "udp://time.example.com:123",
      body: "ping",
      interval_sec: 60,
      assertions: [{ source: "text_body", comparison: "matches", target: "^pong" }],
    }),
  );
  // One of each network type, with its own fields (no secrets: they send none).
  monitors.push(
    await post("/api/v1/monitors", {
      name: "Gateway ping",
      type: "ping",
      url: "ping://gw.example.com",
      ping_count: 5,
      interval_sec: 60,
      assertions: [{ source: "json_body", property: "$.packet_loss_pct", comparison: "less_than", target: "20" }],
    }),
    await post("/api/v1/monitors", {
      name: "Mail relay",
      type: "smtp",
      url: "smtp://mx.example.com:587",
      ssl_expiry_days: 14,
      interval_sec: 60,
    }),
    await post("/api/v1/monitors", {
      name: "Shop domain",
      type: "domain",
      url: "domain://shop.example",
      domain_expiry_days: 45,
      interval_sec: 3600,
    }),
    await post("/api/v1/monitors", {
      name: "Plain relay",
      type: "smtp",
      url: "smtp://relay.example.com",
      smtp_starttls: false,
      interval_sec: 60,
    }),
  );
  for (const i of [2, 7]) expect((await s.call("POST", `/api/v1/monitors/${monitors[i]}/pause`)).status).toBe(200);
  await post("/api/v1/status-pages", {
    slug: "public",
    title: "Public status",
    description: "Everything we run",
    monitor_ids: monitors.slice(0, 6),
  });
  await post("/api/v1/status-pages", {
    slug: "internal",
    title: "Internal",
    monitor_ids: [...monitors.slice(6, 12), ...monitors.slice(18)],
  });
  await post("/api/v1/status-pages", { slug: "empty-page", title: "Public status" });
  return secrets;
}

describe("pulumi-uptime import", () => {
  let proxy: FaultProxy;
  let secrets: Map<string, Record<string, string>>;
  const outDir = mkdtempSync(join(tmpdir(), "pulumi-uptime-import-"));
  afterAll(() => rmSync(outDir, { recursive: true, force: true }));

  const s = useServer();
  beforeAll(async () => {
    proxy = await startFaultProxy(s.url);
  });
  afterAll(async () => {
    await proxy?.close();
  });
  // The generated program is type-checked as it runs, as a user's `pulumi up` would.
  const engine = useEngine({ typeCheck: true });
  beforeAll(async () => {
    secrets = await seedAccount(s);
  });

  it("writes a project that adopts all 32 objects: 0 POSTs on up, then a clean preview", async () => {
    expect(await importCommand(s, outDir)).toMatch(/Wrote 32 resources/);
    const index = readFileSync(join(outDir, "index.ts"), "utf8");
    // Stable across runs: a second import writes the same program.
    await importCommand(s, outDir);
    expect(readFileSync(join(outDir, "index.ts"), "utf8")).toBe(index);
    expect(index).toMatch(/const onCall = new uptime\.Channel\("onCall"/);
    expect(index).toMatch(/const onCall[A-Za-z0-9]{4} = new uptime\.Channel/);
    expect(index).toMatch(/const api0 = new uptime\.Monitor\("api0", \{[^}]*channelIds: \[onCall\.id\],/);
    expect(index).toMatch(/monitorIds: \[[^\]]*\bapi0\.id\b/);
    expect(index).toMatch(/const monitor1stSite4 = /);
    expect(index).toMatch(/const api = .*const api[a-f0-9]{4} = /s);
    expect(index).not.toContain('"t0"');
    expect(index).toMatch(/type: "grpc",[^}]*grpcService: "shop\.Cart"/);
    expect(index).toMatch(
      /type: "udp",\n {2}url: "udp:\/\/time\.example\.com:123",[\s\S]*?body: config\.requireSecret\("ntpIshBody"\),/,
    );
    // The udp datagram "ping" is a secret (`type: "ping"` is not).
    for (const secret of ["Bearer g1", "subscribe", 'body: "ping"']) expect(index).not.toContain(secret);
    expect(index).toMatch(/type: "ping",\n {2}url: "ping:\/\/gw\.example\.com",[\s\S]*?pingCount: 5,/);
    expect(index).toMatch(/type: "smtp",\n {2}url: "smtp:\/\/mx\.example\.com:587",[\s\S]*?sslExpiryDays: 14,/);
    expect(index).toMatch(/type: "smtp",\n {2}url: "smtp:\/\/relay\.example\.com",[\s\S]*?smtpStarttls: false,/);
    expect(index).toMatch(/type: "domain",\n {2}url: "domain:\/\/shop\.example",[\s\S]*?domainExpiryDays: 45,/);
    expect(index).not.toContain("probe");
    expect(index).not.toContain("hooks.slack.com");
    const readme = readFileSync(join(outDir, "README.md"), "utf8");

    // Each secret the README lists, set to the value the service holds (the test made them).
    const config: ConfigMap = {
      "uptime:baseUrl": { value: proxy.url },
      "uptime:apiKey": { value: s.key, secret: true },
    };
    const rows = [
      ...readme.matchAll(/^\| `([A-Za-z0-9]+)` \| .*\((\w+)\): (config\.(\w+)|header (\S+)|request body) \|$/gm),
    ];
    expect(rows.length).toBe(4 + 3 * 3 + 3);
    for (const [, key, id, , prop, header] of rows) {
      const live = prop ? undefined : (await s.call("GET", `/api/v1/monitors/${id}`)).body.data;
      const value = prop ? secrets.get(id as string)?.[prop] : header ? live.headers[header] : live.body;
      expect(value, key).toBeTypeOf("string");
      config[key as string] = { value: value as string, secret: true };
    }

    symlinkSync(inject("packedModules"), join(outDir, "node_modules"), "dir");
    const stack = await engine.stack(outDir, "dev");
    await stack.setAllConfig(config);
    const channelsBefore = (await s.call("GET", "/api/v1/channels")).body.data;
    proxy.seen.length = 0;
    const up = await stack.up({ onOutput: (l) => process.stdout.write(l) });
    expect(up.summary.resourceChanges).toEqual({ create: 34 });
    expect(proxy.seen.filter((r) => r.startsWith("POST "))).toEqual([]);
    // Reads mask a channel's config and its fingerprint is keyed by the server, so adopting a
    // channel writes the declared config once (to record the fingerprint); the server sees the
    // value it already holds and writes nothing: every channel is exactly as before.
    const patches = proxy.seen.filter((r) => r.startsWith("PATCH "));
    expect(patches.every((r) => r.startsWith("PATCH /api/v1/channels/"))).toBe(true);
    expect(patches.length).toBeLessThanOrEqual(channelsBefore.length);
    expect((await s.call("GET", "/api/v1/channels")).body.data).toEqual(channelsBefore);
    expect((await stack.preview()).changeSummary).toEqual({ same: 34 });
    await stack.workspace.removeStack("dev", { force: true });
  });
});
