import { describe, expect, it } from "vitest";
import { webhookChannel } from "../support/server";
import { useServer } from "../support/use-server";

const monitor = (url: string, type = "http") => ({ name: "m", type, url, interval_sec: 60 });
const fields = (body: { error: { details: { field: string }[] } }) => body.error.details.map((d) => d.field);

describe("outbound policy at create and PATCH time (private targets not allowed)", () => {
  const s = useServer({ allowPrivateTargets: false });

  it.each([
    "http://127.0.0.1:8080/",
    "http://[::1]/",
    "http://169.254.169.254/latest/meta-data/",
    "http://10.0.0.1/",
    "http://localhost/",
    "http://db.internal/",
    "http://[::ffff:192.168.0.1]/",
  ])("refuses a monitor aimed at %s with a 422 naming url", async (url) => {
    const res = await s.call("POST", "/api/v1/monitors", monitor(url));
    expect(res.status).toBe(422);
    expect(fields(res.body)).toEqual(["url"]);
    expect(res.body.error.details[0].message).toMatch(/private, loopback or metadata/);
  });

  it("refuses a tcp monitor aimed at loopback, and a PATCH to a private URL", async () => {
    expect((await s.call("POST", "/api/v1/monitors", monitor("tcp://127.0.0.1:5432", "tcp"))).status).toBe(422);
    const created = await s.call("POST", "/api/v1/monitors", monitor("https://example.com/"));
    expect(created.status).toBe(201);
    const patched = await s.call("PATCH", `/api/v1/monitors/${created.body.data.id}`, { url: "http://10.1.2.3/" });
    expect(patched.status).toBe(422);
    expect(fields(patched.body)).toEqual(["url"]);
  });

  it.each([
    { type: "webhook", config: { url: "http://169.254.169.254/x" }, field: "config.url" },
    { type: "slack", config: { webhook_url: "http://localhost/hook" }, field: "config.webhook_url" },
  ])("refuses a $type channel aimed at a private host, naming $field", async ({ type, config, field }) => {
    const refused = await s.call("POST", "/api/v1/channels", { name: type, type, config });
    expect(refused.status).toBe(422);
    expect(fields(refused.body)).toEqual([field]);
  });

  it("refuses a PATCH that aims a webhook channel at a private host, naming config.url", async () => {
    const ok = await webhookChannel(s, "h", { url: "https://hooks.example.com/x" });
    expect(ok.id).toMatch(/^chn_/);
    const patched = await s.call("PATCH", `/api/v1/channels/${ok.id}`, { config: { url: "http://[fd00::5]/" } });
    expect(patched.status).toBe(422);
    expect(fields(patched.body)).toEqual(["config.url"]);
  });
});

describe("outbound policy at create time with private targets allowed", () => {
  const s = useServer({ allowPrivateTargets: true });

  it("accepts loopback and private targets but never link-local metadata", async () => {
    expect((await s.call("POST", "/api/v1/monitors", monitor("http://127.0.0.1:8080/"))).status).toBe(201);
    expect((await s.call("POST", "/api/v1/monitors", monitor("http://localhost:8080/"))).status).toBe(201);
    const meta = await s.call("POST", "/api/v1/monitors", monitor("http://169.254.169.254/"));
    expect(meta.status).toBe(422);
    expect(meta.body.error.details[0].message).toMatch(/never reached/);
  });
});
