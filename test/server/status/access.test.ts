import { request } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer, httpMonitorId } from "../../support/server";

const PASSWORD = "correct horse battery";

describe("where and for whom a status page is served", () => {
  let s: TestServer;
  let pageId: string;

  beforeAll(async () => {
    s = await startServer();
    const mon = await httpMonitorId(s, "api-1", "https://example.com/");
    const page = await s.call("POST", "/api/v1/status-pages", {
      slug: "acme",
      title: "Acme",
      custom_domain: "status.example.test",
      sections: [{ name: "Core", components: [{ key: "api", name: "Public API", monitors: [mon] }] }],
    });
    expect(page.status).toBe(201);
    pageId = page.body.data.id as string;
  });
  afterAll(async () => await s?.close());

  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await request(`${s.url}${path}`, { headers });
    return { status: res.statusCode, headers: res.headers, text: await res.body.text() };
  };

  it("serves the page at its custom domain; an unknown host gets 404", async () => {
    const atDomain = await get("/", { host: "status.example.test" });
    expect(atDomain.status).toBe(200);
    expect(atDomain.text).toContain('<h1><a href="/">Acme</a></h1>');
    expect(atDomain.text).toContain("Public API");
    expect(atDomain.text).not.toContain("noindex");
    expect((await get("/", { host: "status.example.test:8443" })).status).toBe(200);
    const unknown = await get("/", { host: "other.example.test" });
    expect(unknown.status).toBe(404);
    expect(unknown.text).not.toContain("Public API");
    expect((await get("/history", { host: "status.example.test" })).status).toBe(200);
    // The API answers on any host, the page still at /status/<slug>.
    expect((await get("/status/acme")).status).toBe(200);
  });

  it("refuses a second page with the same domain, and a domain that is not a hostname, naming the field", async () => {
    const taken = await s.call("POST", "/api/v1/status-pages", {
      slug: "other",
      title: "Other",
      custom_domain: "status.example.test",
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.details).toEqual([{ field: "custom_domain", message: "is already taken" }]);
    const bad = await s.call("POST", "/api/v1/status-pages", {
      slug: "other",
      title: "Other",
      custom_domain: "https://Status.example.test/",
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details[0].field).toBe("custom_domain");
  });

  it("asks for a private page's password, refuses a wrong one, serves it with the right one, noindex", async () => {
    const patched = await s.call("PATCH", `/api/v1/status-pages/${pageId}`, { password: PASSWORD });
    expect(patched.status).toBe(200);
    expect(patched.body.data.password_set).toBe(true);
    expect(JSON.stringify(patched.body.data)).not.toContain(PASSWORD);
    const refused = await get("/status/acme");
    expect(refused.status).toBe(401);
    expect(refused.text).not.toContain("Public API");
    expect(refused.text).toContain('type="password"');
    expect(refused.headers["x-robots-tag"]).toBe("noindex");
    expect((await get("/", { host: "status.example.test" })).status).toBe(401);
    expect((await s.call("GET", "/api/status/acme.json", undefined, { key: null })).status).toBe(401);
    expect((await get("/status/acme/feed.atom")).status).toBe(401);

    const login = async (password: string) =>
      await request(`${s.url}/status/acme/login`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ password }).toString(),
      });
    const wrong = await login("not the password");
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers["set-cookie"]).toBeUndefined();
    await wrong.body.dump();
    const right = await login(PASSWORD);
    expect(right.statusCode).toBe(303);
    await right.body.dump();
    const cookie = String(right.headers["set-cookie"]).split(";")[0] as string;
    expect(String(right.headers["set-cookie"])).toMatch(/HttpOnly; SameSite=Lax/);
    const served = await get("/status/acme", { cookie });
    expect(served.status).toBe(200);
    expect(served.text).toContain("Public API");
    expect(served.text).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(served.headers["cache-control"]).toBe("private, no-store");
    expect((await s.call("GET", "/api/status/acme.json", undefined, { key: null, headers: { cookie } })).status).toBe(
      200,
    );
    // A new password ends every session.
    await s.call("PATCH", `/api/v1/status-pages/${pageId}`, { password: "another password!" });
    expect((await get("/status/acme", { cookie })).status).toBe(401);
  });

  it("serves a page limited to address ranges only to them", async () => {
    await s.call("PATCH", `/api/v1/status-pages/${pageId}`, { password: null, allowed_cidrs: ["203.0.113.0/24"] });
    expect((await get("/status/acme")).status).toBe(403);
    await s.call("PATCH", `/api/v1/status-pages/${pageId}`, { allowed_cidrs: ["127.0.0.0/8", "::1/128"] });
    const allowed = await get("/status/acme");
    expect(allowed.status).toBe(200);
    expect(allowed.text).toContain("noindex");
    await s.call("PATCH", `/api/v1/status-pages/${pageId}`, { allowed_cidrs: [] });
  });

  it("serves cacheable SVG badges of a component's state and uptime", async () => {
    const state = await get("/status/acme/badges/api/state.svg");
    expect(state.status).toBe(200);
    expect(state.headers["content-type"]).toMatch(/^image\/svg\+xml/);
    expect(state.text).toContain("Public API: unknown");
    expect(state.headers["cache-control"]).toBe("public, max-age=60");
    const etag = state.headers.etag as string;
    expect((await get("/status/acme/badges/api/state.svg", { "if-none-match": etag })).status).toBe(304);
    expect((await get("/status/acme/badges/page/uptime.svg")).text).toContain("Acme uptime: no data");
    expect((await get("/status/acme/badges/nope/state.svg")).status).toBe(404);
  });
});
