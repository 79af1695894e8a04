import { validate } from "@readme/openapi-parser";
import { describe, expect, it } from "vitest";
import { MONITOR_TYPES } from "../../api";
import { startServer } from "../support/server";
import { useServer } from "../support/use-server";

describe("OpenAPI document", () => {
  const s = useServer();

  it("is served without a key, is a valid OpenAPI 3.1 document, and matches the snapshot", async () => {
    const res = await s.call("GET", "/api/v1/openapi.json", undefined, { key: null });
    expect(res.status).toBe(200);
    const doc = res.body;
    expect(doc.openapi).toBe("3.1.0");
    const result = await validate(structuredClone(doc));
    expect(result.valid, JSON.stringify(result)).toBe(true);
    const paths = Object.keys(doc.paths);
    for (const p of [
      "/api/v1/monitors",
      "/api/v1/monitors/{id}/stats",
      "/api/v1/channels/{id}/test",
      "/api/status/{file}",
      "/api/v1/maintenance-windows",
      "/api/v1/maintenance-windows/{id}",
      "/api/v1/monitors/{id}/push-token",
      "/api/push/{token}",
    ]) {
      expect(paths).toContain(p);
    }
    // One variant per type: `url` required but for heartbeat (null or absent), `keyword` only on keyword.
    // Each variant is a named schema the discriminator maps its type to.
    const named = (ref: { $ref: string }) => doc.components.schemas[ref.$ref.replace("#/components/schemas/", "")];
    const create = doc.components.schemas.CreateMonitor;
    expect(create.discriminator.propertyName).toBe("type");
    expect(create.discriminator.mapping.http).toBe("#/components/schemas/CreateMonitorHttp");
    const variants = Object.fromEntries(
      create.oneOf.map((r: { $ref: string }) => [named(r).properties.type.const, named(r)]),
    );
    expect(Object.keys(variants).sort()).toEqual([...MONITOR_TYPES].sort());
    expect(variants.keyword.required).toEqual(["name", "type", "url", "interval_sec", "keyword"]);
    expect(variants.http.required).toEqual(["name", "type", "url", "interval_sec"]);
    expect(variants.heartbeat.required).toEqual(["name", "type", "interval_sec"]);
    expect(variants.heartbeat.properties.url).toEqual({ type: "null" });
    expect(variants.http.properties.keyword).toEqual({ type: "null" });
    expect(variants.http.properties.url.format).toBe("uri");
    expect(variants.tcp.properties.assertions.maxItems).toBe(0);
    const schemas = doc.components.schemas;
    expect(schemas.CreateChannel.discriminator.mapping.email).toBe("#/components/schemas/CreateChannelEmail");
    expect(schemas.CreateChannelEmail.properties.config.properties.address.format).toBe("email");
    expect(schemas.CreateChannelWebhook.properties.config.properties.url.format).toBe("uri");
    expect(schemas.CreateChannelWebhook.properties.config.additionalProperties).toBe(false);
    // Exactly the zones the server takes: this runtime's IANA zones and UTC.
    const zones = schemas.CreateMaintenanceWindow.properties.time_zone.enum;
    expect([...zones].sort()).toEqual([...new Set([...Intl.supportedValuesOf("timeZone"), "UTC"])].sort());
    // The floor of `interval_sec` is this server's (30 by default).
    expect(variants.http.properties.interval_sec.minimum).toBe(30);
    expect(doc.components.schemas.UpdateMonitor.properties.interval_sec.minimum).toBe(30);
    await expect(JSON.stringify(doc, null, 2)).toMatchFileSnapshot("../__snapshots__/openapi.json");
  });

  it("states the interval floor the server enforces, as its config sets it", async () => {
    const lowered = await startServer({ minIntervalSec: 5 });
    try {
      const doc = (await lowered.call("GET", "/api/v1/openapi.json", undefined, { key: null })).body;
      const variants = doc.components.schemas.CreateMonitor.oneOf.map(
        (r: { $ref: string }) => doc.components.schemas[r.$ref.split("/").pop() as string],
      );
      expect(
        variants.map((v: { properties: { interval_sec: { minimum: number } } }) => v.properties.interval_sec.minimum),
      ).toEqual(MONITOR_TYPES.map(() => 5));
      expect(doc.components.schemas.UpdateMonitor.properties.interval_sec.minimum).toBe(5);
      const below = await lowered.call("POST", "/api/v1/monitors", { name: "m", type: "heartbeat", interval_sec: 4 });
      expect(below.status).toBe(422);
      expect(below.body.error.details).toEqual([{ field: "interval_sec", message: "must be between 5 and 86400" }]);
      const at = await lowered.call("POST", "/api/v1/monitors", {
        name: "m",
        type: "heartbeat",
        interval_sec: 5,
        timeout_sec: 1,
      });
      expect(at.status).toBe(201);
    } finally {
      await lowered.close();
    }
  });
});
