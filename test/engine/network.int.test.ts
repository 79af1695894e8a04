import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkedUp, refusedPreview, useServer, useStack } from "../support/engine-suite";
import { type RdapTarget, type SmtpTarget, startRdapServer, startSmtpServer } from "../support/network-servers";
import { driftFields, expectTestPasses } from "./cli";

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
    expect(await refusedPreview(stack, s, { badPingUrl: { value: "ping://127.0.0.1:7" } }, { onOutput })).toMatch(
      /url: must be ping:\/\/host \(a name or an IP address\) for ping monitors, with no port/,
    );
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
    await checkedUp(s, Object.values(ids));
    expect(rdap.requests).toContain("/rdap/domain/shop.example");

    expect((await stack.preview({ onOutput })).changeSummary).toEqual({ same: 5 });

    await expectTestPasses(engine, program.workDir, ["loopback-ping", "relay-smtp", "shop-domain"], output);
  }, 400_000);

  it("drift in each is caught by name and field, and refresh + up restore them", async () => {
    await s.call("PATCH", `/api/v1/monitors/${ids.ping}`, { ping_count: 5 });
    await s.call("PATCH", `/api/v1/monitors/${ids.smtp}`, { ssl_expiry_days: 3 });
    await s.call("PATCH", `/api/v1/monitors/${ids.domain}`, { domain_expiry_days: 60 });
    const { fields } = await driftFields(engine, program.workDir);
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
