import { request } from "undici";
import { describe, expect, it } from "vitest";
import { startVendorReceiver, type Vendor, type VendorReceiver, type VendorRequest } from "../../server/testing";
import { eventually, startTarget } from "../support/target";
import { useServer, useStarted } from "../support/use-server";

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- vendor payloads read as JSON

const ROUTING_KEY = "R0uting0Key0000000000000000000a1";
const GENIE_KEY = "5f3e2d1c-aaaa-bbbb-cccc-0123456789ab";
const BOT_TOKEN = "123456789:AAH-bot-token-secret-0123456789abcdef";

/** A channel of each vendor type pointed at the receiver. */
const configs = (v: VendorReceiver): Record<Vendor, Json> => ({
  pagerduty: { routing_key: ROUTING_KEY, severity: "error", api_url: v.url },
  opsgenie: { api_key: GENIE_KEY, region: "eu", priority: "P2", api_url: v.url },
  teams: { webhook_url: v.teamsUrl },
  discord: { webhook_url: v.discordUrl },
  telegram: { bot_token: BOT_TOKEN, chat_id: "-1001234567890", api_url: v.url },
});

/** What each vendor must have got for a trigger (`down`) and for the recovery (`up`). */
const expectations: Record<Vendor, (r: VendorRequest, phase: "down" | "up") => void> = {
  pagerduty: (r, phase) => {
    expect(r.path).toBe("/v2/enqueue");
    expect(r.body).toMatchObject({ routing_key: ROUTING_KEY, event_action: phase === "down" ? "trigger" : "resolve" });
    if (phase === "down")
      expect((r.body as Json).payload).toMatchObject({
        severity: "error",
        summary: expect.stringContaining("is down"),
      });
  },
  opsgenie: (r, phase) => {
    expect(r.headers.authorization).toBe(`GenieKey ${GENIE_KEY}`);
    if (phase === "down") {
      expect(r.path).toBe("/v2/alerts");
      expect(r.body).toMatchObject({
        priority: "P2",
        message: expect.stringContaining("is down"),
        alias: expect.any(String),
      });
    } else {
      expect(r.path).toMatch(/^\/v2\/alerts\/[^/]+\/close\?identifierType=alias$/);
    }
  },
  teams: (r, phase) => {
    const card = (r.body as Json).attachments[0].content;
    expect(card).toMatchObject({ type: "AdaptiveCard", version: "1.4" });
    expect(card.body[0].text).toContain(phase === "down" ? "is down" : "is up again");
  },
  discord: (r, phase) => {
    expect((r.body as Json).embeds[0].title).toContain(phase === "down" ? "is down" : "is up again");
    expect((r.body as Json).embeds[0].color).toBe(phase === "down" ? 0xd93025 : 0x188038);
  },
  telegram: (r, phase) => {
    expect(r.path).toBe(`/bot${BOT_TOKEN}/sendMessage`);
    expect(r.body).toMatchObject({
      chat_id: "-1001234567890",
      text: expect.stringContaining(phase === "down" ? "is down" : "is up again"),
    });
  },
};

/** The key that ties a vendor's trigger to its resolve. */
const keyOf = (vendor: Vendor, r: VendorRequest): string | undefined =>
  vendor === "pagerduty"
    ? (r.body as Json).dedup_key
    : vendor === "opsgenie"
      ? ((r.body as Json)?.alias ?? decodeURIComponent(r.path.split("/")[3] as string))
      : undefined;

/** The 4xx each vendor answers a refused request with, and the reason the record must show. */
const refusals: Record<Vendor, { status: number; body: Json; reason: string }> = {
  pagerduty: {
    status: 400,
    body: {
      status: "invalid event",
      message: "Event object is invalid",
      errors: ["Length of 'routing_key' is incorrect"],
    },
    reason: "Event object is invalid",
  },
  opsgenie: {
    status: 401,
    body: { message: "Could not authenticate", took: 0, requestId: "x" },
    reason: "Could not authenticate",
  },
  teams: {
    status: 400,
    body: { error: { code: "WorkflowTriggerIsNotEnabled", message: "The workflow is disabled" } },
    reason: "WorkflowTriggerIsNotEnabled",
  },
  discord: { status: 404, body: { message: "Unknown Webhook", code: 10015 }, reason: "Unknown Webhook" },
  telegram: {
    status: 403,
    body: { ok: false, error_code: 403, description: "Forbidden: bot was blocked by the user" },
    reason: "Forbidden: bot was blocked by the user",
  },
};

const VENDORS = Object.keys(refusals) as Vendor[];

/**
 * How long a notice may take to reach the receiver: the monitor's first failing checks (2 s apart), the alert tick and
 * the delivery. Generous, because the suite also runs beside three other files on PostgreSQL; the wait ends as soon
 * as the request arrives.
 */
const ARRIVAL_MS = 60_000;

describe("vendor channels against the vendor receiver", () => {
  const s = useServer({ checker: true, minIntervalSec: 1, notifyRetryDelaysMs: [50, 50], alertTickMs: 100 });
  const v = useStarted("the vendor receiver", startVendorReceiver);
  const target = useStarted("the target", startTarget);

  const channel = async (type: Vendor, extra: Json = {}) => {
    const res = await s.call("POST", "/api/v1/channels", { name: type, type, config: configs(v)[type], ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  };
  const monitorOf = async (channelIds: string[], extra: Json = {}) => {
    const res = await s.call("POST", "/api/v1/monitors", {
      name: "site",
      type: "http",
      url: target.url,
      interval_sec: 2,
      timeout_sec: 1,
      channel_ids: channelIds,
      ...extra,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data;
  };

  it("masks each vendor's secret on reads, and shows its plain settings", async () => {
    const pd = await channel("pagerduty");
    expect(pd.config).toEqual({ routing_key: "****", severity: "error", api_url: v.url });
    const tg = await channel("telegram");
    expect(tg.config).toEqual({ bot_token: "****", chat_id: "-1001234567890", api_url: v.url });
    const teams = await channel("teams");
    expect(teams.config).toEqual({ webhook_url: `${v.url}/****` });
    const listed = JSON.stringify((await s.call("GET", "/api/v1/channels")).body);
    for (const secret of [ROUTING_KEY, BOT_TOKEN, "TEAMS-SIG-SECRET"]) expect(listed).not.toContain(secret);
    for (const c of [pd, tg, teams]) await s.call("DELETE", `/api/v1/channels/${c.id}`);
  });

  it("refuses a missing routing key, a malformed chat id and an unknown event with a 422 naming the field", async () => {
    const cases: [Json, string][] = [
      [{ type: "pagerduty", config: { severity: "critical" } }, "config.routing_key"],
      [{ type: "pagerduty", config: { routing_key: ROUTING_KEY, severity: "page" } }, "config.severity"],
      [{ type: "telegram", config: { bot_token: BOT_TOKEN, chat_id: "my chat" } }, "config.chat_id"],
      [{ type: "opsgenie", config: { api_key: GENIE_KEY, region: "apac" } }, "config.region"],
      [{ type: "discord", config: { webhook_url: "https://discord.com/x", events: ["down"] } }, "config.events"],
      [{ type: "discord", config: { webhook_url: "https://discord.com/x" }, events: ["down", "paged"] }, "events[1]"],
      [
        { type: "discord", config: { webhook_url: "https://discord.com/x" }, events: ["down"], notify_degraded: true },
        "notify_degraded",
      ],
    ];
    for (const [body, field] of cases) {
      const res = await s.call("POST", "/api/v1/channels", { name: "x", ...body });
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(
        res.body.error.details.map((d: { field: string }) => d.field),
        JSON.stringify(res.body),
      ).toContain(field);
    }
  });

  it("the receiver refuses a malformed payload as the vendor would", async () => {
    const post = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
      const res = await request(`${v.url}${path}`, {
        method: "POST",
        body: JSON.stringify(body),
        headers: { "content-type": "application/json", ...headers },
      });
      return { status: res.statusCode, body: (await res.body.json()) as Json };
    };
    expect(
      await post("/v2/enqueue", {
        routing_key: ROUTING_KEY,
        event_action: "trigger",
        payload: { summary: "x", source: "y", severity: "fatal" },
      }),
    ).toMatchObject({
      status: 400,
      body: { status: "invalid event", errors: ["payload.severity must be critical, error, warning or info"] },
    });
    expect((await post("/v2/alerts", { message: "x" })).status).toBe(401);
    expect((await post("/v2/alerts", { alias: "a" }, { authorization: `GenieKey ${GENIE_KEY}` })).status).toBe(422);
    expect(await post(`/bot${BOT_TOKEN}/sendMessage`, { chat_id: "-1", text: "" })).toMatchObject({
      status: 400,
      body: { ok: false, description: "Bad Request: message text is empty" },
    });
    expect(await post("/api/webhooks/1/t", { embeds: [{ title: "x".repeat(300) }] })).toMatchObject({
      status: 400,
      body: { code: 50035 },
    });
    expect(
      (
        await post("/workflows/1/triggers/manual/paths/invoke", {
          type: "message",
          attachments: [{ contentType: "text/plain" }],
        })
      ).status,
    ).toBe(400);
  });

  for (const vendor of VENDORS) {
    it(`${vendor}: a valid trigger on down and a resolve on recovery, tied by the same key`, async () => {
      const c = await channel(vendor);
      target.healthy = false;
      const m = await monitorOf([c.id]);
      const before = v.of(vendor).length;
      try {
        const [down] = (await v.waitFor(vendor, before + 1, ARRIVAL_MS)).slice(before);
        target.healthy = true;
        const [up] = (await v.waitFor(vendor, before + 2, ARRIVAL_MS)).slice(before + 1);
        for (const r of [down, up] as VendorRequest[]) expect(r.problems, JSON.stringify(r.body)).toEqual([]);
        expect(down?.headers["content-type"]).toBe("application/json");
        expectations[vendor](down as VendorRequest, "down");
        expectations[vendor](up as VendorRequest, "up");
        expect(keyOf(vendor, up as VendorRequest)).toBe(keyOf(vendor, down as VendorRequest));
        // The vendor has the request a moment before the server records its answer.
        const kinds = async () =>
          (await s.call("GET", `/api/v1/channels/${c.id}/deliveries`)).body.data.map((d: Json) => [d.kind, d.status]);
        await eventually(
          async () =>
            JSON.stringify(await kinds()) ===
            JSON.stringify([
              ["resolve", "delivered"],
              ["trigger", "delivered"],
            ]),
          5_000,
        ).catch(() => undefined);
        expect(await kinds()).toEqual([
          ["resolve", "delivered"],
          ["trigger", "delivered"],
        ]);
      } finally {
        await s.call("DELETE", `/api/v1/monitors/${m.id}`);
        target.healthy = true;
      }
    });

    it(`${vendor}: a 4xx answer is recorded as failed with the vendor's reason, and not retried`, async () => {
      const c = await channel(vendor);
      const refusal = refusals[vendor];
      v.answerNext(vendor, { status: refusal.status, body: refusal.body });
      target.healthy = false;
      const m = await monitorOf([c.id]);
      const before = v.of(vendor).length;
      try {
        await v.waitFor(vendor, before + 1, ARRIVAL_MS);
        const failed = await eventually(async () => {
          const list = (await s.call("GET", `/api/v1/channels/${c.id}/deliveries`)).body.data as Json[];
          return list.find((d) => d.status === "failed");
        });
        expect(failed).toMatchObject({
          kind: "trigger",
          event: "monitor.down",
          attempts: 1,
          status_code: refusal.status,
        });
        expect(failed.reason).toContain(refusal.reason);
        // Retries come 25..75 ms apart: none came.
        await new Promise((r) => setTimeout(r, 400));
        expect(v.of(vendor).length).toBe(before + 1);
      } finally {
        await s.call("DELETE", `/api/v1/monitors/${m.id}`);
        target.healthy = true;
      }
    });
  }

  it("retries a 5xx and a 429 as before, then delivers", async () => {
    const c = await channel("discord");
    v.answerNext("discord", { status: 503, body: { message: "upstream" } });
    v.answerNext("discord", {
      status: 429,
      body: { message: "You are being rate limited.", retry_after: 0.01, global: false },
    });
    target.healthy = false;
    const m = await monitorOf([c.id]);
    const before = v.of("discord").length;
    try {
      const got = (await v.waitFor("discord", before + 3, ARRIVAL_MS)).slice(before);
      expect(got.map((r) => r.status)).toEqual([503, 429, 204]);
      const delivered = await eventually(async () =>
        ((await s.call("GET", `/api/v1/channels/${c.id}/deliveries`)).body.data as Json[]).find(
          (d) => d.status === "delivered",
        ),
      );
      expect(delivered).toMatchObject({ kind: "trigger", attempts: 3, status_code: 204 });
    } finally {
      await s.call("DELETE", `/api/v1/monitors/${m.id}`);
      target.healthy = true;
    }
  });
});
