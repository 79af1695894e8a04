import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";

describe("status pages API", () => {
  let s: TestServer;
  let monitorIds: string[];
  beforeAll(async () => {
    s = await startServer();
    monitorIds = [];
    for (const name of ["Website", "API"]) {
      const res = await s.call("POST", "/api/v1/monitors", {
        name,
        type: "http",
        url: `https://secret-host.example/${name}`,
        interval_sec: 60,
        headers: { authorization: "Bearer hidden" },
      });
      monitorIds.push(res.body.data.id);
    }
  });
  afterAll(() => s.close());

  it("creates a page with its monitors as a sorted set, and refuses a taken slug with 409", async () => {
    const res = await s.call("POST", "/api/v1/status-pages", {
      slug: "acme",
      title: "Acme",
      monitor_ids: [...monitorIds].reverse(),
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      slug: "acme",
      title: "Acme",
      description: null,
      monitor_ids: [...monitorIds].sort(),
    });
    const taken = await s.call("POST", "/api/v1/status-pages", { slug: "acme", title: "Other" });
    expect(taken.status).toBe(409);
    expect(taken.body.error.code).toBe("conflict");
  });

  it("validates slug, title and monitor ids", async () => {
    for (const [body, field] of [
      [{ slug: "No Caps", title: "t" }, "slug"],
      [{ slug: "ab", title: "t" }, "slug"],
      [{ slug: "okay", title: "" }, "title"],
      [{ slug: "okay", title: "t", monitor_ids: ["mon_nope"] }, "monitor_ids[0]"],
    ] as const) {
      const res = await s.call("POST", "/api/v1/status-pages", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.error.details[0].field).toBe(field);
    }
  });

  it("serves the public document without a key, with names and health only", async () => {
    const res = await s.call("GET", "/api/status/acme.json", undefined, { key: null });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ slug: "acme", title: "Acme", status: "unknown" });
    expect(res.body.data.monitors).toEqual([
      {
        name: "Website",
        status: "pending",
        uptime_pct_24h: null,
        uptime_pct_30d: null,
        last_checked_at: null,
      },
      { name: "API", status: "pending", uptime_pct_24h: null, uptime_pct_30d: null, last_checked_at: null },
    ]);
    const text = JSON.stringify(res.body);
    expect(text).not.toContain("secret-host");
    expect(text).not.toContain("hidden");
    expect(text).not.toContain("mon_");
    expect((await s.call("GET", "/api/status/nope.json", undefined, { key: null })).status).toBe(404);
    expect((await s.call("GET", "/api/status/acme", undefined, { key: null })).status).toBe(404);
  });

  it("GETs, PATCHes and DELETEs a page (extensions); a renamed slug moves the public document", async () => {
    const page = (
      await s.call("POST", "/api/v1/status-pages", {
        slug: "move-me",
        title: "T",
        monitor_ids: [monitorIds[0]],
      })
    ).body.data;
    expect((await s.call("GET", `/api/v1/status-pages/${page.id}`)).body.data).toEqual(page);
    const patched = await s.call("PATCH", `/api/v1/status-pages/${page.id}`, {
      slug: "moved",
      description: "d",
    });
    expect(patched.body.data).toMatchObject({
      slug: "moved",
      description: "d",
      monitor_ids: [monitorIds[0]],
    });
    expect((await s.call("GET", "/api/status/move-me.json", undefined, { key: null })).status).toBe(404);
    expect((await s.call("GET", "/api/status/moved.json", undefined, { key: null })).status).toBe(200);
    expect((await s.call("PATCH", `/api/v1/status-pages/${page.id}`, { slug: "acme" })).status).toBe(409);
    await s.call("DELETE", `/api/v1/monitors/${monitorIds[0]}`);
    expect((await s.call("GET", `/api/v1/status-pages/${page.id}`)).body.data.monitor_ids).toEqual([]);
    expect((await s.call("DELETE", `/api/v1/status-pages/${page.id}`)).status).toBe(200);
    expect((await s.call("GET", `/api/v1/status-pages/${page.id}`)).status).toBe(404);
  });
});
