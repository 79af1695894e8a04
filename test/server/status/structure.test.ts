import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../../support/server";

describe("status page structure, components and incidents (API)", () => {
  let s: TestServer;
  let mons: string[];

  beforeAll(async () => {
    s = await startServer();
    const monitor = async (name: string) =>
      (await s.call("POST", "/api/v1/monitors", { name, type: "http", url: "https://example.com/", interval_sec: 60 }))
        .body.data.id as string;
    mons = [await monitor("a"), await monitor("b"), await monitor("c")];
  });
  afterAll(async () => await s?.close());

  it("returns sections and rules as written, defaults filled in, monitors as a sorted set", async () => {
    const body = {
      slug: "shape",
      title: "Shape",
      sections: [
        {
          name: "Core",
          components: [
            { key: "api", name: "API", monitors: [mons[1], mons[0]], rule: "all-down" },
            { key: "web", name: "Web", monitors: [mons[2]], rule: "response-time", threshold: 500 },
          ],
        },
        { name: "People", components: [{ key: "support", name: "Support", rule: "manual" }] },
      ],
      incident_rules: [{ component: "api", minutes: 5, title: "{name} down" }],
      locale: "de",
      brand_color: "#0969da",
    };
    const page = (await s.call("POST", "/api/v1/status-pages", body)).body.data;
    expect(page.sections).toEqual([
      {
        name: "Core",
        components: [
          {
            key: "api",
            name: "API",
            description: null,
            monitors: [mons[0], mons[1]].sort(),
            rule: "all-down",
            threshold: null,
          },
          { key: "web", name: "Web", description: null, monitors: [mons[2]], rule: "response-time", threshold: 500 },
        ],
      },
      {
        name: "People",
        components: [
          { key: "support", name: "Support", description: null, monitors: [], rule: "manual", threshold: null },
        ],
      },
    ]);
    expect(page.incident_rules).toEqual([
      { component: "api", tag: null, minutes: 5, title: "{name} down", message: null },
    ]);
    expect(page).toMatchObject({
      locale: "de",
      brand_color: "#0969da",
      custom_domain: null,
      password_set: false,
      allowed_cidrs: [],
      logo_url: null,
    });
    expect((await s.call("GET", `/api/v1/status-pages/${page.id}`)).body.data).toEqual(page);
  });

  it("refuses broken structure with an error naming each field and rule", async () => {
    const res = await s.call("POST", "/api/v1/status-pages", {
      slug: "broken",
      title: "Broken",
      sections: [
        {
          name: "S",
          components: [
            { key: "x", name: "X", rule: "manual", monitors: [mons[0]] },
            { key: "x", name: "Y", monitors: [] },
            { key: "z", name: "Z", monitors: [mons[0]], rule: "response-time" },
            { key: "q", name: "Q", monitors: ["mon_nope"] },
          ],
        },
      ],
      incident_rules: [
        { component: "nope", minutes: 1, title: "t" },
        { component: "x", tag: "prod", minutes: 1, title: "t" },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.error.details).toEqual(
      expect.arrayContaining([
        { field: "sections[0].components[0].monitors", message: "must be empty for a manual component" },
        { field: "sections[0].components[1].key", message: '"x" is used by another component of the page' },
        { field: "sections[0].components[1].monitors", message: "must name at least 1 monitor (rule worst)" },
        { field: "sections[0].components[2].threshold", message: "is required with rule response-time" },
        { field: "sections[0].components[3].monitors[0]", message: "monitor mon_nope does not exist" },
        { field: "incident_rules[0].component", message: 'no component "nope" on the page' },
        { field: "incident_rules[1]", message: "must give exactly one of component and tag" },
      ]),
    );
  });

  it("sets a manual component's state through the API; the page follows its components", async () => {
    const page = (
      await s.call("POST", "/api/v1/status-pages", {
        slug: "manual",
        title: "Manual",
        sections: [
          {
            name: "S",
            components: [
              { key: "api", name: "API", monitors: [mons[0]] },
              { key: "desk", name: "Desk", rule: "manual" },
            ],
          },
        ],
      })
    ).body.data;
    await s.app.store.recordCheck(
      mons[0] as string,
      { up: true, response_time_ms: 50, status_code: 200, error: null },
      Date.now(),
    );
    expect((await s.call("GET", "/api/status/manual.json", undefined, { key: null })).body.data.status).toBe(
      "operational",
    );
    const set = await s.call("PUT", `/api/v1/status-pages/${page.id}/components/desk`, { state: "down" });
    expect(set.status).toBe(200);
    expect(set.body.data).toMatchObject({ key: "desk", state: "down", rule: "manual" });
    const doc = (await s.call("GET", "/api/status/manual.json", undefined, { key: null })).body.data;
    expect(doc.status).toBe("degraded");
    expect(doc.sections[0].components.map((c: { key: string; status: string }) => [c.key, c.status])).toEqual([
      ["api", "operational"],
      ["desk", "down"],
    ]);
    const notManual = await s.call("PATCH", `/api/v1/status-pages/${page.id}/components/api`, { state: "down" });
    expect(notManual.status).toBe(422);
    expect(notManual.body.error.details[0].field).toBe("state");
    expect((await s.call("PATCH", `/api/v1/status-pages/${page.id}/components/nope`, { state: "down" })).status).toBe(
      404,
    );
    // A rename through the API changes the declared structure (what a refresh reports as drift).
    await s.call("PATCH", `/api/v1/status-pages/${page.id}/components/api`, { name: "Public API" });
    expect((await s.call("GET", `/api/v1/status-pages/${page.id}`)).body.data.sections[0].components[0].name).toBe(
      "Public API",
    );
  });

  it("opens, updates and resolves an incident; a post-mortem only after resolution; open ones first in the document", async () => {
    const page = (
      await s.call("POST", "/api/v1/status-pages", {
        slug: "written",
        title: "Written",
        sections: [{ name: "S", components: [{ key: "api", name: "API", monitors: [mons[1]] }] }],
      })
    ).body.data;
    const base = `/api/v1/status-pages/${page.id}/incidents`;
    const first = (await s.call("POST", base, { title: "Old one", message: "Looking" })).body.data;
    await s.call("POST", `${base}/${first.id}/updates`, { state: "resolved", message: "Fixed" });
    const opened = await s.call("POST", base, {
      title: "Slow API",
      message: "We are looking",
      components: { api: "degraded" },
    });
    expect(opened.status).toBe(201);
    expect(opened.body.data).toMatchObject({
      state: "investigating",
      components: { api: "degraded" },
      resolved_at: null,
      rule: null,
    });
    const id = opened.body.data.id as string;
    expect(
      (await s.call("POST", base, { title: "x", message: "y", components: { nope: "degraded" } })).body.error.details,
    ).toEqual([{ field: "components.nope", message: 'no component "nope" on the page' }]);
    expect((await s.call("PATCH", `${base}/${id}`, { postmortem: "Too early" })).status).toBe(422);
    const updated = (await s.call("POST", `${base}/${id}/updates`, { state: "identified", message: "A bad deploy" }))
      .body.data;
    expect(updated.updates.map((u: { state: string }) => u.state)).toEqual(["identified", "investigating"]);
    const doc = (await s.call("GET", "/api/status/written.json", undefined, { key: null })).body.data;
    expect(doc.incidents.map((i: { title: string }) => i.title)).toEqual(["Slow API", "Old one"]);
    const resolved = (await s.call("POST", `${base}/${id}/updates`, { state: "resolved", message: "Rolled back" })).body
      .data;
    expect(resolved).toMatchObject({ state: "resolved", components: { api: "none" } });
    expect(resolved.resolved_at).not.toBeNull();
    expect((await s.call("POST", `${base}/${id}/updates`, { state: "monitoring", message: "again" })).status).toBe(409);
    expect(
      (await s.call("PATCH", `${base}/${id}`, { postmortem: "A config change went out unreviewed." })).body.data
        .postmortem,
    ).toBe("A config change went out unreviewed.");
    expect((await s.call("GET", `${base}?state=open`)).body.data).toEqual([]);
    expect((await s.call("GET", `${base}?state=resolved`)).body.data).toHaveLength(2);
  });
});
