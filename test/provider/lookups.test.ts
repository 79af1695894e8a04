import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getChannel, getMaintenanceWindow, getMonitor, getMonitorOutput, getStatusPage } from "../../provider/index";
import { startServer, type TestServer } from "../support/server";

describe("lookups", () => {
  let s: TestServer;
  let connection: { baseUrl: string; apiKey: string };
  let monitorId: string;
  beforeAll(async () => {
    s = await startServer();
    connection = { baseUrl: s.url, apiKey: s.key };
    monitorId = (
      await s.call("POST", "/api/v1/monitors", {
        name: "api",
        type: "http",
        url: "https://api.example.com",
        interval_sec: 60,
      })
    ).body.data.id;
  });
  afterAll(() => s.close());

  it("finds each kind by id and by name or slug, with the fields the service holds", async () => {
    const byName = await getMonitor({ name: "api" }, { connection });
    expect(byName).toMatchObject({
      id: monitorId,
      name: "api",
      url: "https://api.example.com",
      intervalSec: 60,
      endpoint: s.url,
    });
    expect(await getMonitor({ id: monitorId }, { connection })).toEqual(byName);
    const page = (
      await s.call("POST", "/api/v1/status-pages", { slug: "lookup-page", title: "Lookups", monitor_ids: [monitorId] })
    ).body.data;
    expect(await getStatusPage({ slug: "lookup-page" }, { connection })).toMatchObject({
      id: page.id,
      title: "Lookups",
      monitorIds: [monitorId],
    });
    const window = (
      await s.call("POST", "/api/v1/maintenance-windows", {
        name: "nightly",
        monitor_ids: [monitorId],
        starts_at: "2030-01-01T02:00:00Z",
        ends_at: "2030-01-01T03:00:00Z",
      })
    ).body.data;
    expect(await getMaintenanceWindow({ name: "nightly" }, { connection })).toMatchObject({
      id: window.id,
      monitorIds: [monitorId],
    });
  });

  it("leaves a channel's secret config out of what it returns", async () => {
    const made = await s.call("POST", "/api/v1/channels", {
      name: "hook",
      type: "webhook",
      config: { url: "https://hooks.example.com/T0KEN-abc", secret: "s3cr3t-value-0123456789" },
    });
    expect(made.body).toMatchObject({ ok: true });
    const found = await getChannel({ name: "hook" }, { connection });
    expect(found).toMatchObject({ name: "hook", type: "webhook" });
    expect(found).not.toHaveProperty("config");
    expect(JSON.stringify(found)).not.toContain("s3cr3t-value");
    expect(JSON.stringify(found)).not.toContain("T0KEN-abc");
  });

  it("says how many matched when a name matches none or more than one", async () => {
    await expect(getMonitor({ name: "nope" }, { connection })).rejects.toMatchObject({
      code: "lookup_not_found",
      matches: 0,
      message: expect.stringContaining(`getMonitor({ name: "nope" }) failed: name "nope" matches 0 monitors`),
    });
    await s.call("POST", "/api/v1/monitors", {
      name: "api",
      type: "http",
      url: "https://api2.example.com",
      interval_sec: 60,
    });
    await expect(getMonitor({ name: "api" }, { connection })).rejects.toMatchObject({
      code: "lookup_ambiguous",
      matches: 2,
      message: expect.stringMatching(/name "api" matches 2 monitors .*\(mon_\w+, mon_\w+\); give its id instead/),
    });
    await expect(getMonitor({ id: "mon_missing" }, { connection })).rejects.toMatchObject({ code: "lookup_not_found" });
  });

  it("refuses a query without exactly one of id and name, naming the field", async () => {
    await expect(getMonitor({}, { connection })).rejects.toThrow("getMonitor({}) failed: id: give either id or name");
    await expect(getMonitor({ id: monitorId, name: "api" }, { connection })).rejects.toThrow(
      "name: give either id or name, not both",
    );
    await expect(getStatusPage({ slug: "" }, { connection })).rejects.toThrow("slug: must be a non-empty string");
  });

  it("answers an Output in the Output form", async () => {
    const name = await new Promise((resolve) =>
      getMonitorOutput({ id: monitorId }, { connection }).name.apply(resolve),
    );
    expect(name).toBe("api");
  });
});
