import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../../support/server";
import { eventually } from "../../support/target";
import { type SunkMail, startMailSink } from "../../support/mail-sink";
import { useStarted } from "../../support/use-server";

const SECRET = "hook-secret-0123456789";

/** A mail's text with quoted-printable soft breaks and escapes undone. */
const decoded = (raw: string) =>
  raw.replace(/=\r?\n/g, "").replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
const codeIn = (raw: string, action: string) =>
  new RegExp(`${action}\\?code=([A-Za-z0-9_%-]+)`).exec(decoded(raw))?.[1] as string;

describe("an incident rule and the page's subscribers", () => {
  let hooks: Server;
  let hookUrl: string;
  let s: TestServer;
  const mails: SunkMail[] = [];
  const smtp = useStarted("the mail sink", () => startMailSink(mails));
  const posts: { body: string; signature: string | undefined; event: string | undefined }[] = [];

  beforeAll(async () => {
    hooks = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        posts.push({
          body,
          signature: req.headers["x-signature"] as string | undefined,
          event: req.headers["x-event"] as string | undefined,
        });
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, "127.0.0.1", resolve));
    hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`;
    s = await startServer({
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      incidentRuleTickMs: 100,
      subscribeLimitPerHour: 20,
    });
  });
  afterAll(async () => {
    await s?.close();
    await new Promise<void>((resolve) => hooks.close(() => resolve()));
  });

  it("opens one incident when a component goes down, tells each confirmed subscriber once, and resolves it on recovery", async () => {
    const monitor = async (name: string) =>
      (await s.call("POST", "/api/v1/monitors", { name, type: "http", url: "https://example.com/", interval_sec: 60 }))
        .body.data.id as string;
    const [api, web] = [await monitor("api-1"), await monitor("web-1")];
    const created = await s.call("POST", "/api/v1/status-pages", {
      slug: "acme",
      title: "Acme",
      sections: [
        { name: "Core", components: [{ key: "api", name: "Public API", monitors: [api] }] },
        {
          name: "Other",
          components: [
            { key: "web", name: "Website", monitors: [web] },
            { key: "support", name: "Support desk", rule: "manual" },
          ],
        },
      ],
      incident_rules: [{ component: "api", minutes: 0, title: "{name} is down" }],
    });
    expect(created.status).toBe(201);
    const pageId = created.body.data.id as string;
    const now = Date.now();
    await s.app.store.recordCheck(api, { up: true, response_time_ms: 80, status_code: 200, error: null }, now - 5000);
    await s.app.store.recordCheck(web, { up: true, response_time_ms: 80, status_code: 200, error: null }, now - 5000);

    const subscribe = async (body: object) => await s.call("POST", "/status/acme/subscribe", body, { key: null });
    for (const email of ["reader@example.com", "silent@example.com", "leaver@example.com"]) {
      const answer = await subscribe({ email });
      expect(answer.status).toBe(202);
    }
    expect((await subscribe({ webhook: hookUrl, secret: SECRET })).status).toBe(202);
    await eventually(async () => mails.length >= 3, 15_000, "three confirmation mails");
    const mailTo = (to: string) => mails.find((m) => m.to.includes(to))?.data as string;
    for (const who of ["reader@example.com", "leaver@example.com"]) {
      const res = await request(`${s.url}/status/acme/confirm?code=${codeIn(mailTo(who), "confirm")}`);
      expect(res.statusCode).toBe(200);
      await res.body.dump();
    }
    const leave = await request(`${s.url}/status/acme/unsubscribe`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: `code=${codeIn(mailTo("leaver@example.com"), "unsubscribe")}`,
    });
    expect(leave.statusCode).toBe(200);
    await leave.body.dump();
    // Subscribing again says the same as the first time and sends nothing.
    const again = await subscribe({ email: "reader@example.com" });
    expect(again.body).toEqual((await subscribe({ email: "new@example.com" })).body);
    await eventually(async () => mails.length >= 4, 15_000, "the new address's confirmation");
    await new Promise((r) => setTimeout(r, 300));
    expect(mails.flatMap((m) => m.to).sort()).toEqual([
      "leaver@example.com",
      "new@example.com",
      "reader@example.com",
      "silent@example.com",
    ]);
    mails.length = 0;

    // The API's monitor goes down: the rule opens one incident.
    await s.app.store.recordCheck(
      api,
      { up: false, response_time_ms: null, status_code: 503, error: "HTTP 503" },
      Date.now(),
    );
    const open = await eventually(
      async () => {
        const list = (await s.call("GET", `/api/v1/status-pages/${pageId}/incidents?state=open`)).body.data as {
          id: string;
          title: string;
          rule: number;
        }[];
        return list.length ? list : undefined;
      },
      15_000,
      "the rule's incident",
    );
    await eventually(async () => mails.length >= 1 && posts.length >= 1, 15_000, "one mail and one post");
    await new Promise((r) => setTimeout(r, 600)); // several more passes of the rule
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({ title: "Public API is down", rule: 0 });
    expect((await s.call("GET", `/api/v1/status-pages/${pageId}/incidents`)).body.data).toHaveLength(1);
    expect(mails.flatMap((m) => m.to)).toEqual(["reader@example.com"]);
    expect(decoded(mails[0]?.data as string)).toMatch(/Subject: \[Acme\] Incident: Public API is down/);
    expect(decoded(mails[0]?.data as string)).toMatch(/Unsubscribe: http/);
    expect(posts).toHaveLength(1);
    const post = posts[0] as (typeof posts)[number];
    expect(post.signature).toBe(`sha256=${createHmac("sha256", SECRET).update(post.body).digest("hex")}`);
    expect(JSON.parse(post.body)).toMatchObject({
      event: "incident.opened",
      incident: { title: "Public API is down", state: "investigating", components: { api: "major-outage" } },
    });
    const feed = await (await request(`${s.url}/status/acme/feed.atom`)).body.text();
    expect(feed).toContain("<title>Public API is down (investigating)</title>");
    const doc = (await s.call("GET", "/api/status/acme.json", undefined, { key: null })).body.data;
    expect(doc.status).toBe("degraded");
    expect(doc.sections[0].components[0]).toMatchObject({ key: "api", status: "down" });
    expect(doc.incidents[0]).toMatchObject({ title: "Public API is down", state: "investigating", resolved_at: null });

    // Recovery resolves it: one more mail, one more post.
    await s.app.store.recordCheck(api, { up: true, response_time_ms: 90, status_code: 200, error: null }, Date.now());
    await eventually(
      async () => {
        const list = (await s.call("GET", `/api/v1/status-pages/${pageId}/incidents?state=resolved`)).body
          .data as unknown[];
        return list.length ? list : undefined;
      },
      15_000,
      "the incident resolved",
    );
    await eventually(async () => mails.length >= 2 && posts.length >= 2, 15_000, "a second mail and post");
    await new Promise((r) => setTimeout(r, 600));
    expect(mails.flatMap((m) => m.to)).toEqual(["reader@example.com", "reader@example.com"]);
    expect(decoded(mails[1]?.data as string)).toMatch(/Subject: \[Acme\] Resolved: Public API is down/);
    expect(posts).toHaveLength(2);
    expect(JSON.parse(posts[1]?.body as string)).toMatchObject({
      event: "incident.resolved",
      incident: { state: "resolved" },
    });
    expect((await s.call("GET", `/api/v1/status-pages/${pageId}/incidents`)).body.data).toHaveLength(1);
    expect(await (await request(`${s.url}/status/acme/feed.atom`)).body.text()).toContain(
      "<title>Public API is down (resolved)</title>",
    );
  });
});
