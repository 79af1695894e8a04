import { describe, expect, it } from "vitest";
import { ASSERTION_DEFAULTS, type Channel, MONITOR_EXTENSION_DEFAULTS, type Monitor, type StatusPage } from "../../api";
import { declareAccount } from "../../provider/import/declare";
import { filterAccount } from "../../provider/import";
import { assignNames, identifierOf } from "../../provider/import/names";
import { renderIndex, renderReadme } from "../../provider/import/render";

const monitor = (id: string, name: string, over: Partial<Monitor> = {}): Monitor => ({
  id,
  name,
  type: "http",
  url: "https://example.com/",
  interval_sec: 60,
  timeout_sec: 10,
  method: "GET",
  headers: {},
  body: null,
  expected_status_codes: ["2xx", "3xx"],
  keyword: null,
  keyword_case_sensitive: false,
  follow_redirects: true,
  channel_ids: [],
  tags: [],
  ...MONITOR_EXTENSION_DEFAULTS,
  ...ASSERTION_DEFAULTS,
  unchecked_locations: [],
  status: "active",
  health: "up",
  last_checked_at: null,
  external_id: null,
  created_at: `2026-01-01T00:00:0${id.slice(-1)}.000Z`,
  updated_at: "2026-01-01T00:00:00.000Z",
  ...over,
});

describe("import: names", () => {
  it("derives valid identifiers from display names", () => {
    expect(identifierOf("API health (prod)", "monitor")).toBe("apiHealthProd");
    expect(identifierOf("Café ✓", "monitor")).toBe("cafe");
    expect(identifierOf("1st site", "monitor")).toBe("monitor1stSite");
    expect(identifierOf("new", "channel")).toBe("channelNew");
    expect(identifierOf("✓✓✓", "page")).toBe("page");
  });

  it("keeps the earliest object's name and suffixes later ones by id, whatever the listing order", () => {
    const objects = [
      { id: "mon_bbbb2222", name: "API", createdAt: "2026-01-02", kind: "monitor" },
      { id: "mon_aaaa1111", name: "API", createdAt: "2026-01-01", kind: "monitor" },
      { id: "mon_cccc3333", name: "api!", createdAt: "2026-01-03", kind: "monitor" },
    ];
    const names = assignNames(objects);
    expect([...names.entries()]).toEqual([
      ["mon_aaaa1111", "api"],
      ["mon_bbbb2222", "api2222"],
      ["mon_cccc3333", "api3333"],
    ]);
    expect(assignNames([...objects].reverse())).toEqual(names);
  });
});

describe("import: declarations", () => {
  const channel: Channel = {
    id: "chn_1",
    name: "Hooks",
    type: "webhook",
    config: { url: "https://h.example.com/****", secret: "****" },
    config_fingerprint: "x",
    external_id: null,
    notify_degraded: false,
    events: ["down", "recovered"],
    created_at: "2026-01-01T00:00:00.000Z",
    updated_at: "2026-01-01T00:00:00.000Z",
  };
  const page: StatusPage = {
    id: "sp_1",
    slug: "public",
    title: "Public",
    description: null,
    monitor_ids: ["mon_1", "mon_2"],
    external_id: null,
    sections: [],
    incident_rules: [],
    custom_domain: null,
    password_set: false,
    allowed_cidrs: [],
    locale: "en",
    logo_url: null,
    brand_color: null,
    created_at: "2026-01-01T00:00:09.000Z",
    updated_at: "2026-01-01T00:00:09.000Z",
  };
  const account = {
    channels: [channel],
    monitors: [
      monitor("mon_1", "API", {
        channel_ids: ["chn_1"],
        tags: ["prod"],
        headers: { authorization: "Bearer x" },
        body: "{}",
        method: "POST",
        status: "paused",
      }),
      monitor("mon_2", "Docs", { timeout_sec: 20 }),
    ],
    statusPages: [page],
  };

  it("writes references as variables, secrets as config, and leaves defaults out", () => {
    const program = declareAccount(account);
    const index = renderIndex(program, "test");
    expect(index).toContain(
      'const api = new uptime.Monitor("api", {\n  name: "API",\n  type: "http",\n  url: "https://example.com/",\n  intervalSec: 60,\n  method: "POST",\n  channelIds: [hooks.id],\n  tags: ["prod"],\n  paused: true,',
    );
    expect(index).toContain('authorization: config.requireSecret("apiHeaderAuthorization")');
    expect(index).toContain('body: config.requireSecret("apiBody")');
    expect(index).toContain('url: config.requireSecret("hooksUrl")');
    expect(index).toContain("monitorIds: [api.id, docs.id]");
    expect(index).toMatch(
      /const docs = new uptime\.Monitor\("docs", \{[^}]*timeoutSec: 20,\n {2}adopt: "mon_2",\n\}\);/,
    );
    expect(index).not.toMatch(/followRedirects|expectedStatusCodes|keyword|description/);
    expect(program.secrets.map((s) => s.key)).toEqual(["hooksUrl", "hooksSecret", "apiHeaderAuthorization", "apiBody"]);
  });

  it("writes a multi-step monitor's steps as code, its variables as secret config, and a retry strategy", () => {
    const step = {
      name: "log in",
      method: "POST" as const,
      url: "https://example.com/login",
      headers: {},
      body: '{"p":"{{password}}"}',
      statuses: ["2xx", "3xx"],
      extract: [{ name: "token", source: "json_body" as const, property: "$.token", secret: true }],
      assertions: [],
      cleanup: false,
    };
    const journey = monitor("mon_3", "Journey", {
      type: "multistep",
      url: null,
      steps: [step],
      variables: { password: "x" },
      retry: { strategy: "linear", delay: 500, retries: 2, duration: 60, trigger: "failure" },
    });
    const program = declareAccount({ channels: [], monitors: [journey], statusPages: [] });
    const index = renderIndex(program, "test");
    expect(index).toContain('type: "multistep",');
    expect(index).toContain('name: "log in"');
    expect(index).toContain('property: "$.token"');
    expect(index).toContain('password: config.requireSecret("journeyVarPassword")');
    expect(index).toContain('strategy: "linear"');
    expect(program.secrets.map((s) => s.key)).toEqual(["journeyVarPassword"]);
  });

  it("lists the secret keys in the README, names escaped for Markdown", () => {
    const odd = { ...account, channels: [{ ...channel, name: "a|b `c`" }] };
    const readme = renderReadme(declareAccount(odd), "http://127.0.0.1:8080", "test");
    expect(readme).toContain('| `aBCUrl` | webhook channel "a\\|b \\`c\\`" (chn_1): config.url |');
    expect(readme).toContain("pulumi config set --secret apiBody '…'");
  });

  it("filters by tag: the tagged monitors, their channels, the pages showing them; other ids stay literal", () => {
    const filtered = filterAccount(account, "tag:PROD");
    expect(filtered.monitors.map((m) => m.id)).toEqual(["mon_1"]);
    expect(filtered.channels.map((c) => c.id)).toEqual(["chn_1"]);
    expect(renderIndex(declareAccount(filtered), "t")).toContain('monitorIds: [api.id, "mon_2"]');
    expect(() => filterAccount(account, "prod")).toThrow(/--filter must be tag:NAME/);
  });
});
