import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { startReceiver } from "../support/receiver";
import { startServer, webhookChannel, emailChannel, postMonitor } from "../support/server";
import { useServer, useStarted } from "../support/use-server";

describe("channels API", () => {
  const s = useServer();
  const receiver = useStarted("the receiver", startReceiver);

  it("creates each type and masks token-bearing config on every read", async () => {
    const secretUrl = "https://hooks.slack.com/services/T000/B000/XXXXSECRET";
    const slack = await s.call("POST", "/api/v1/channels", {
      name: "ops",
      type: "slack",
      config: { webhook_url: secretUrl },
    });
    expect(slack.status).toBe(201);
    expect(slack.body.data).toMatchObject({
      name: "ops",
      type: "slack",
      config: { webhook_url: "https://hooks.slack.com/****" },
    });
    // Keyed by the server (see channel-fingerprint.test.ts): a hex HMAC-SHA256, not the config.
    expect(slack.body.data.config_fingerprint).toMatch(/^[0-9a-f]{64}$/);
    const hook = await s.call("POST", "/api/v1/channels", {
      name: "hook",
      type: "webhook",
      config: { url: `${receiver.url}/hook?token=abc`, secret: "0123456789abcdef" },
    });
    expect(hook.body.data.config).toEqual({ url: `${receiver.url}/****`, secret: "****" });
    const email = await s.call("POST", "/api/v1/channels", {
      name: "mail",
      type: "email",
      config: { address: "ops@example.com" },
    });
    expect(email.body.data.config).toEqual({ address: "ops@example.com" });
    const listed = await s.call("GET", "/api/v1/channels");
    expect(JSON.stringify(listed.body)).not.toContain("SECRET");
    expect(JSON.stringify(listed.body)).not.toContain("0123456789abcdef");
    expect(listed.body.data.map((c: { id: string }) => c.id)).toEqual([
      slack.body.data.id,
      hook.body.data.id,
      email.body.data.id,
    ]);
  });

  it("validates config by type and names the field", async () => {
    const cases: [unknown, string][] = [
      [{ name: "x", type: "webhook", config: { url: "not a url" } }, "config.url"],
      [{ name: "x", type: "webhook", config: { url: "https://x.example", secret: "short" } }, "config.secret"],
      [{ name: "x", type: "email", config: { address: "nope" } }, "config.address"],
      [{ name: "x", type: "pager", config: {} }, "type"],
      [{ name: "x", type: "slack", config: { webhook_url: "https://x.example", extra: 1 } }, "config.extra"],
    ];
    for (const [body, field] of cases) {
      const res = await s.call("POST", "/api/v1/channels", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).toContain(field);
    }
  });

  it("GETs, PATCHes and DELETEs a channel (extensions), and a deleted channel leaves its monitors", async () => {
    const c = await emailChannel(s, "a", "a@example.com");
    const m = (await postMonitor(s, { type: "http", url: "https://example.com", channel_ids: [c.id] })).body.data;
    expect(m.channel_ids).toEqual([c.id]);
    expect((await s.call("GET", `/api/v1/channels/${c.id}`)).body.data).toEqual(c);
    const renamed = await s.call("PATCH", `/api/v1/channels/${c.id}`, {
      name: "b",
      config: { address: "b@example.com" },
    });
    expect(renamed.body.data).toMatchObject({ name: "b", config: { address: "b@example.com" } });
    // The same values again write nothing: the channel, `updated_at` included, stays as it was.
    await new Promise((r) => setTimeout(r, 5));
    const same = await s.call("PATCH", `/api/v1/channels/${c.id}`, { name: "b", config: { address: "b@example.com" } });
    expect(same.body.data).toEqual(renamed.body.data);
    const bad = await s.call("PATCH", `/api/v1/channels/${c.id}`, { config: { address: "x" } });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toBe("config.address");
    expect((await s.call("PATCH", `/api/v1/channels/${c.id}`, { type: "slack" })).body.error.details[0]).toEqual({
      field: "type",
      message: expect.stringMatching(/cannot be changed/),
    });
    expect((await s.call("DELETE", `/api/v1/channels/${c.id}`)).body.data.id).toBe(c.id);
    expect((await s.call("GET", `/api/v1/channels/${c.id}`)).status).toBe(404);
    expect((await s.call("GET", `/api/v1/monitors/${m.id}`)).body.data.channel_ids).toEqual([]);
  });

  it("test delivers a signed webhook to a real receiver, and a failing receiver is a 502", async () => {
    const secret = "0123456789abcdef";
    const c = await webhookChannel(s, "h", { url: `${receiver.url}/t`, secret });
    const before = receiver.received.length;
    const res = await s.call("POST", `/api/v1/channels/${c.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      delivered: true,
      status_code: 200,
      response_time_ms: expect.any(Number),
    });
    const got = receiver.received[before];
    expect(got?.path).toBe("/t");
    expect(JSON.parse(got?.body ?? "")).toMatchObject({ event: "test", occurred_at: expect.any(String) });
    const expected = `sha256=${createHmac("sha256", secret)
      .update(got?.body ?? "")
      .digest("hex")}`;
    expect(got?.headers["x-signature"]).toBe(expected);

    receiver.status = 500;
    try {
      const failed = await s.call("POST", `/api/v1/channels/${c.id}/test`);
      expect(failed.status).toBe(502);
      expect(failed.body.error.code).toBe("delivery_failed");
      expect(failed.body.error.message).toMatch(/HTTP 500/);
      expect(failed.body.error.message).not.toContain("/t");
    } finally {
      receiver.status = 200;
    }
  });

  it("records email tests in the outbox when no SMTP server is configured", async () => {
    const c = await emailChannel(s, "m", "oncall@example.com");
    const res = await s.call("POST", `/api/v1/channels/${c.id}/test`);
    expect(res.body.data).toMatchObject({ delivered: true, status_code: null });
    expect((await s.app.store.outbox.list())[0]).toMatchObject({ recipient: "oncall@example.com", channel_id: c.id });
  });
});

describe("outbound safety", () => {
  it("refuses loopback and metadata targets at create time (422 naming config.url) and never delivers there", async () => {
    const receiver = await startReceiver();
    const s = await startServer({ allowPrivateTargets: false });
    try {
      for (const url of [
        `${receiver.url}/x`,
        "http://169.254.169.254/latest/meta-data",
        "http://metadata.google.internal/",
      ]) {
        const res = await s.call("POST", "/api/v1/channels", { name: "x", type: "webhook", config: { url } });
        expect(res.status, url).toBe(422);
        expect(res.body.error.details[0].field).toBe("config.url");
      }
      expect(receiver.received).toHaveLength(0);
    } finally {
      await s.close();
      await receiver.close();
    }
  });

  it("refuses delivery at connect time to a channel stored while private targets were allowed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "channel-policy-"));
    const receiver = await startReceiver();
    try {
      const db = join(dir, "u.db");
      const first = await startServer({ db, allowPrivateTargets: true });
      const c = await webhookChannel(first, "x", { url: `${receiver.url}/x` });
      await first.close();
      const s = await startServer({ db, allowPrivateTargets: false, devKey: first.key });
      const res = await s.call("POST", `/api/v1/channels/${c.id}/test`);
      expect(res.status).toBe(502);
      expect(res.body.error.code).toBe("delivery_failed");
      expect(res.body.error.message).toMatch(/outbound policy/);
      await s.close();
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
