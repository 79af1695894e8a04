import { describe, expect, it } from "vitest";
import { useServer } from "../support/use-server";

const kinds = [
  ["/api/v1/monitors", { name: "m", type: "http", url: "https://example.com", interval_sec: 60 }, { name: "renamed" }],
  ["/api/v1/channels", { name: "c", type: "email", config: { address: "ops@example.com" } }, { name: "renamed" }],
  ["/api/v1/status-pages", { slug: "ext-a", title: "A" }, { title: "renamed" }],
] as const;

describe("external_id", () => {
  const s = useServer();

  for (const [path, body, patch] of kinds) {
    it(`${path}: set at create, returned by reads, unique per account, changed or cleared by PATCH`, async () => {
      const mark = `pulumi/proj/dev/${path}/x`;
      const created = await s.call("POST", path, { ...body, external_id: mark });
      expect(created.status).toBe(201);
      expect(created.body.data.external_id).toBe(mark);
      expect((await s.call("GET", `${path}/${created.body.data.id}`)).body.data.external_id).toBe(mark);
      const listed = (await s.call("GET", path)).body.data.find((o: { id: string }) => o.id === created.body.data.id);
      expect(listed.external_id).toBe(mark);

      const twin = { ...body, ...("slug" in body ? { slug: "ext-b" } : {}), external_id: mark };
      const dup = await s.call("POST", path, twin);
      expect(dup.status).toBe(409);
      expect(dup.body.error.details).toEqual([
        { field: "external_id", message: expect.stringContaining(created.body.data.id) },
      ]);

      const other = (await s.app.store.keys.create(`ext-other-${path.length}`, null)).key;
      const theirs = await s.call(
        "POST",
        path,
        { ...twin, ...("slug" in body ? { slug: "ext-c" } : {}) },
        { key: other },
      );
      expect(theirs.status).toBe(201);

      // PATCH of other fields keeps the mark; an explicit null clears it.
      const kept = await s.call("PATCH", `${path}/${created.body.data.id}`, patch);
      expect(kept.body.data.external_id).toBe(mark);
      const cleared = await s.call("PATCH", `${path}/${created.body.data.id}`, { external_id: null });
      expect(cleared.body.data.external_id).toBeNull();
      expect((await s.call("POST", path, twin)).status).toBe(201);
    });
  }

  it("/api/v1/maintenance-windows: set at create, returned by reads, unique per account, changed or cleared by PATCH", async () => {
    const monitor = (await s.call("POST", kinds[0][0], kinds[0][1])).body.data;
    const body = {
      name: "w",
      monitor_ids: [monitor.id],
      starts_at: "2030-01-01T00:00:00Z",
      ends_at: "2030-01-01T01:00:00Z",
    };
    const path = "/api/v1/maintenance-windows";
    const mark = "pulumi/proj/dev/0123456789abcdef/MaintenanceWindow/w";
    const created = await s.call("POST", path, { ...body, external_id: mark });
    expect(created.status).toBe(201);
    expect(created.body.data.external_id).toBe(mark);
    expect((await s.call("GET", `${path}/${created.body.data.id}`)).body.data.external_id).toBe(mark);
    expect(
      (await s.call("GET", path)).body.data.find((o: { id: string }) => o.id === created.body.data.id).external_id,
    ).toBe(mark);
    const dup = await s.call("POST", path, { ...body, external_id: mark });
    expect(dup.status).toBe(409);
    expect(dup.body.error.details).toEqual([
      { field: "external_id", message: expect.stringContaining(created.body.data.id) },
    ]);
    expect((await s.call("PATCH", `${path}/${created.body.data.id}`, { name: "renamed" })).body.data.external_id).toBe(
      mark,
    );
    expect(
      (await s.call("PATCH", `${path}/${created.body.data.id}`, { external_id: null })).body.data.external_id,
    ).toBeNull();
    expect((await s.call("POST", path, { ...body, external_id: mark })).status).toBe(201);
    expect((await s.call("POST", path, body)).body.data.external_id).toBeNull();
  });

  it("is null when not given, and refuses control characters and more than 255 characters", async () => {
    const [path, body] = kinds[0];
    expect((await s.call("POST", path, body)).body.data.external_id).toBeNull();
    for (const bad of ["tab\there", "x".repeat(256), ""]) {
      const res = await s.call("POST", path, { ...body, external_id: bad });
      expect(res.status).toBe(422);
      expect(res.body.error.details[0].field).toBe("external_id");
    }
  });
});

describe("names and titles are kept exactly as written", () => {
  const s = useServer();

  it("returns padded and unicode names unchanged, and refuses a name of spaces only", async () => {
    for (const name of [" spaced ", "Ünïcödé ✓ 監視", "\u00a0nbsp"]) {
      const m = await s.call("POST", "/api/v1/monitors", { ...kinds[0][1], name });
      expect(m.body.data.name).toBe(name);
      expect((await s.call("GET", `/api/v1/monitors/${m.body.data.id}`)).body.data.name).toBe(name);
    }
    const c = await s.call("POST", "/api/v1/channels", { ...kinds[1][1], name: "  ops  " });
    expect(c.body.data.name).toBe("  ops  ");
    const p = await s.call("POST", "/api/v1/status-pages", { slug: "padded-title", title: " Acme " });
    expect(p.body.data.title).toBe(" Acme ");
    const blank = await s.call("POST", "/api/v1/monitors", { ...kinds[0][1], name: "   " });
    expect(blank.status).toBe(422);
    expect(blank.body.error.details).toEqual([{ field: "name", message: "must not be only spaces" }]);
  });
});
