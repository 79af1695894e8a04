import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DriftReport } from "../../provider/commands/drift";
import { useServer, useStack } from "../support/engine-suite";
import { type RdapTarget, type SmtpTarget, startRdapServer, startSmtpServer } from "../support/network-servers";
import { eventually } from "../support/target";
import { cli } from "./cli";

/** Runs the provider's CLI (`drift --json`, `test`) as a user's pipeline would: a separate process. */
describe("ping, smtp and domain monitors deployed by the engine", () => {
  let smtp: SmtpTarget;
  let rdap: RdapTarget;
  let ids: Record<"ping" | "smtp" | "domain", string>;
  const output: string[] = [];
  const onOutput = (line: string) => output.push(line);

  beforeAll(async () => {
    smtp = await startSmtpServer({ certDays: 30 });
    rdap = await startRdapServer({ "shop.example": 200 });
  });
  afterAll(async () => {
    await Promise.all([smtp?.close(), rdap?.close()]);
  });
  const s = useServer(() => ({ checker: true, minIntervalSec: 1, rdapBootstrapUrl: rdap.bootstrapUrl }));
  const { stack, engine, program } = useStack({
    program: "test/engine/programs/network",
    server: s,
    config: () => ({ smtpUrl: { value: smtp.url } }),
  });

  it("a ping URL with a port fails the preview, naming the field and the rule", async () => {
    await stack.setConfig("badPingUrl", { value: "ping://127.0.0.1:7" });
    const failed = await stack.preview({ onOutput }).then(
      () => "",
      (err: Error) => err.message,
    );
    expect(failed).toMatch(/url: must be ping:\/\/host \(a name or an IP address\) for ping monitors, with no port/);
    await stack.removeConfig("badPingUrl");
    expect((await s.call("GET", "/api/v1/monitors")).body.data).toEqual([]);
  }, 300_000);

  it("deploys one of each; each is checked up; a second preview is clean; `pulumi-uptime test` passes each", async () => {
    const up = await stack.up({ onOutput });
    // The stack, the provider and the three monitors.
    expect(up.summary.resourceChanges).toEqual({ create: 5 });
    ids = up.outputs.ids?.value;
    const live = async (id: string) => (await s.call("GET", `/api/v1/monitors/${id}`)).body.data;
    expect(await live(ids.ping)).toMatchObject({ type: "ping", url: "ping://127.0.0.1", ping_count: 2 });
    expect(await live(ids.smtp)).toMatchObject({
      type: "smtp",
      ssl_expiry_days: 7,
      verify_tls: false,
      smtp_starttls: null,
    });
    expect(await live(ids.domain)).toMatchObject({ type: "domain", domain_expiry_days: 30 });
    for (const id of Object.values(ids)) {
      // A resumed monitor is checked at once: no wait for the next of its 30 s.
      await s.call("POST", `/api/v1/monitors/${id}/pause`);
      await s.call("POST", `/api/v1/monitors/${id}/resume`);
      await eventually(async () => (await live(id)).health === "up");
    }
    expect(rdap.requests).toContain("/rdap/domain/shop.example");

    expect((await stack.preview({ onOutput })).changeSummary).toEqual({ same: 5 });

    const test = await cli(engine, program.workDir, ["test"]);
    output.push(test.stdout);
    expect(test.code, test.stdout).toBe(0);
    for (const name of ["loopback-ping", "relay-smtp", "shop-domain"])
      expect(test.stdout).toMatch(new RegExp(`^${name}\\s+\\S+\\s+pass\\b`, "m"));
  }, 400_000);

  it("drift in each is caught by name and field, and refresh + up restore them", async () => {
    await s.call("PATCH", `/api/v1/monitors/${ids.ping}`, { ping_count: 5 });
    await s.call("PATCH", `/api/v1/monitors/${ids.smtp}`, { ssl_expiry_days: 3 });
    await s.call("PATCH", `/api/v1/monitors/${ids.domain}`, { domain_expiry_days: 60 });
    const drift = await cli(engine, program.workDir, ["drift", "--json"]);
    const report = JSON.parse(drift.stdout) as DriftReport;
    expect(drift.code).toBe(2);
    const fields = Object.fromEntries(report.resources.map((r) => [r.name, r.fields.map((f) => f.field)]));
    expect(fields).toEqual({
      "loopback-ping": ["pingCount"],
      "relay-smtp": ["sslExpiryDays"],
      "shop-domain": ["domainExpiryDays"],
    });

    await stack.refresh({ onOutput });
    await stack.up({ onOutput });
    expect((await stack.preview({ onOutput })).changeSummary).toEqual({ same: 5 });
    const live = async (id: string) => (await s.call("GET", `/api/v1/monitors/${id}`)).body.data;
    expect(await live(ids.ping)).toMatchObject({ ping_count: 2 });
    expect(await live(ids.smtp)).toMatchObject({ ssl_expiry_days: 7 });
    expect(await live(ids.domain)).toMatchObject({ domain_expiry_days: 30 });
  }, 400_000);
});
