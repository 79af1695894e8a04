import { validate } from "@readme/openapi-parser";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../support/server";

describe("OpenAPI document", () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startServer();
  });
  afterAll(() => s.close());

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
    // `url` is required by type (every type but heartbeat), a rule the server checks.
    expect(doc.components.schemas.CreateMonitor.required).toEqual(["name", "type", "interval_sec"]);
    await expect(JSON.stringify(doc, null, 2)).toMatchFileSnapshot("../__snapshots__/openapi.json");
  });
});
