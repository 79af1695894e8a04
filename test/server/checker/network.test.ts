import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../scripts/pulumi-engine";
import { type RdapTarget, type SmtpTarget, startRdapServer, startSmtpServer } from "../../support/network-servers";
import { startServer, type TestServer } from "../../support/server";
import { eventually, startTarget, type Target } from "../../support/target";

/** ping, smtp and domain monitors against real local servers, through the dry run and the checker. */
describe("network monitors", () => {
  let s: TestServer;
  let rdap: RdapTarget;
  let starttls: SmtpTarget;
  let plain: SmtpTarget;
  let implicit: SmtpTarget;
  let site: Target;
  beforeAll(async () => {
    site = await startTarget();
    rdap = await startRdapServer({ "shop.example": 200, "soon.example": 10, "gone.test": -3 });
    [starttls, plain, implicit] = await Promise.all([
      startSmtpServer({ certDays: 30 }),
      startSmtpServer({ starttls: false }),
      startSmtpServer({ implicit: true }),
    ]);
    s = await startServer({ checker: true, minIntervalSec: 1, rdapBootstrapUrl: rdap.bootstrapUrl });
  });
  afterAll(async () => {
    await s?.close();
    await Promise.all([rdap?.close(), starttls?.close(), plain?.close(), implicit?.close(), site?.close()]);
  });
  const dryRun = async (body: Record<string, unknown>) => {
    const res = await s.call("POST", "/api/v1/monitors/test", { name: "n", interval_sec: 30, timeout_sec: 3, ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const json = (property: string, comparison: string, target: string) => ({
    source: "json_body",
    property,
    comparison,
    target,
  });

  it("ping: 127.0.0.1 answers every echo request; assertions judge packet loss and round trip", async () => {
    const res = await dryRun({
      type: "ping",
      url: "ping://127.0.0.1",
      ping_count: 2,
      assertions: [
        json("$.packet_loss_pct", "less_than", "50"),
        json("$.rtt_avg_ms", "less_than", "100"),
        json("$.received", "equals", "2"),
      ],
    });
    expect(res).toMatchObject({ status: "up", error: null });
    expect(res.assertions.map((a: { pass: boolean }) => a.pass)).toEqual([true, true, true]);
    const strict = await dryRun({
      type: "ping",
      url: "ping://localhost",
      assertions: [json("$.rtt_avg_ms", "greater_than", "5000")],
    });
    expect(strict).toMatchObject({
      status: "down",
      error_class: "assertion",
      error: expect.stringContaining("$.rtt_avg_ms"),
    });
  });

  it("smtp: STARTTLS with a self-signed certificate fails unless verify_tls is false; the banner, EHLO and days left are read", async () => {
    expect(await dryRun({ type: "smtp", url: starttls.url })).toMatchObject({ status: "down", error_class: "tls" });
    const res = await dryRun({
      type: "smtp",
      url: starttls.url,
      verify_tls: false,
      assertions: [
        json("$.banner", "contains", "uptime test relay"),
        json("$.starttls", "equals", "true"),
        json("$.cert_days_left", "greater_than", "27"),
      ],
    });
    expect(res, JSON.stringify(res)).toMatchObject({ status: "up", error: null });
    expect(res.assertions.map((a: { pass: boolean }) => a.pass)).toEqual([true, true, true]);
  });

  it("smtp: down when the certificate has fewer days left than ssl_expiry_days", async () => {
    const res = await dryRun({ type: "smtp", url: starttls.url, verify_tls: false, ssl_expiry_days: 60 });
    expect(res).toMatchObject({
      status: "down",
      error: expect.stringMatching(/^certificate expires in 2\d days .*fewer than 60$/),
    });
  });

  it("smtp: a server without STARTTLS is down unless smtp_starttls is false; smtps:// is TLS from the start", async () => {
    expect(await dryRun({ type: "smtp", url: plain.url })).toMatchObject({
      status: "down",
      error: expect.stringContaining("does not offer STARTTLS"),
    });
    const open = await dryRun({
      type: "smtp",
      url: plain.url,
      smtp_starttls: false,
      assertions: [json("$.tls", "equals", "false")],
    });
    expect(open).toMatchObject({ status: "up", assertions: [{ pass: true }] });
    const tls = await dryRun({
      type: "smtp",
      url: implicit.url,
      verify_tls: false,
      assertions: [json("$.tls", "equals", "true"), json("$.starttls", "equals", "false")],
    });
    expect(tls).toMatchObject({ status: "up" });
  });

  it("smtp: nothing listening is a connection failure", async () => {
    const gone = await startSmtpServer();
    await gone.close();
    expect(await dryRun({ type: "smtp", url: gone.url, smtp_starttls: false })).toMatchObject({
      status: "down",
      error_class: "connect",
    });
  });

  it("domain: days to the registration's expiry through RDAP, with the thresholds of certificate expiry", async () => {
    const res = await dryRun({
      type: "domain",
      url: "domain://shop.example",
      domain_expiry_days: 30,
      assertions: [json("$.days_left", "greater_than", "150")],
    });
    expect(res).toMatchObject({ status: "up", assertions: [{ pass: true }] });
    expect(await dryRun({ type: "domain", url: "domain://soon.example", domain_expiry_days: 30 })).toMatchObject({
      status: "down",
      error_class: "assertion",
      error: expect.stringMatching(/^domain registration expires in (9|10) days .*fewer than 30$/),
    });
    expect(await dryRun({ type: "domain", url: "domain://gone.test" })).toMatchObject({
      status: "down",
      error: expect.stringContaining("expired"),
    });
    expect(await dryRun({ type: "domain", url: "domain://nobody.example" })).toMatchObject({
      status: "down",
      error: expect.stringContaining("not registered (RDAP answered 404)"),
    });
    expect(await dryRun({ type: "domain", url: "domain://shop.invalid" })).toMatchObject({
      status: "down",
      error: "no RDAP service for .invalid in the bootstrap file",
    });
    expect(rdap.requests).toContain("/rdap/domain/shop.example");
  });

  it("http and keyword monitors with domain_expiry_days check the registration of the URL's registrable domain", async () => {
    // A process with its own /etc/hosts (`unshare -rm`): www.shop.example and www.soon.example are the local site.
    const dir = mkdtempSync(join(tmpdir(), "uptime-hosts-"));
    try {
      writeFileSync(join(dir, "hosts"), "127.0.0.1 localhost www.shop.example www.soon.example\n");
      const port = new URL(site.url).port;
      const dryRunWithHosts = async (body: Record<string, unknown>) => {
        const input = JSON.stringify({
          options: { rdapBootstrapUrl: rdap.bootstrapUrl },
          body: { name: "d", interval_sec: 30, timeout_sec: 3, ...body },
        });
        const script = `mount --bind "${join(dir, "hosts")}" /etc/hosts && exec "${process.execPath}" test/support/dry-run-in-namespace.mjs '${input}'`;
        const { stdout } = await promisify(execFile)("unshare", ["-rm", "sh", "-c", script], {
          cwd: REPO_ROOT,
          timeout: 60_000,
        });
        return JSON.parse(stdout).data;
      };
      expect(
        await dryRunWithHosts({ type: "http", url: `http://www.shop.example:${port}/`, domain_expiry_days: 30 }),
      ).toMatchObject({ status: "up", error: null });
      expect(
        await dryRunWithHosts({
          type: "keyword",
          url: `http://www.soon.example:${port}/`,
          keyword: "OK",
          domain_expiry_days: 30,
        }),
      ).toMatchObject({
        status: "down",
        error: expect.stringMatching(/^domain registration expires in (9|10) days/),
      });
      expect(rdap.requests).toContain("/rdap/domain/soon.example");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const refused = await s.call("POST", "/api/v1/monitors/test", {
      name: "d",
      type: "http",
      url: site.url,
      interval_sec: 30,
      domain_expiry_days: 30,
    });
    expect(refused.body.error.details).toEqual([
      {
        field: "domain_expiry_days",
        message: "needs a url whose host is a domain name (not an IP address or a single label)",
      },
    ]);
  });

  it("the checker records heartbeats of each type, and a status page shows each up", async () => {
    const ids: string[] = [];
    const bodies = [
      { type: "ping", url: "ping://127.0.0.1", ping_count: 1 },
      { type: "smtp", url: starttls.url, verify_tls: false },
      { type: "domain", url: "domain://shop.example", domain_expiry_days: 30 },
    ];
    for (const body of bodies) {
      const res = await s.call("POST", "/api/v1/monitors", {
        name: body.type,
        interval_sec: 2,
        timeout_sec: 1,
        ...body,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const hb = await eventually(
        async () =>
          (
            (await s.call("GET", `/api/v1/monitors/${res.body.data.id}/heartbeats?hours=1`)).body.data as Record<
              string,
              unknown
            >[]
          )[0],
      );
      expect(hb, body.type).toMatchObject({ status: "up" });
      ids.push(res.body.data.id);
    }
    expect(
      (await s.call("POST", "/api/v1/status-pages", { slug: "network", title: "Network", monitor_ids: ids })).status,
    ).toBe(201);
    const page = (await s.call("GET", "/api/status/network.json", undefined, { key: null })).body.data;
    expect(page.monitors.map((m: { name: string; status: string }) => [m.name, m.status])).toEqual([
      ["ping", "up"],
      ["smtp", "up"],
      ["domain", "up"],
    ]);
    const html = await fetch(`${s.url}/status/network`).then((r) => r.text());
    for (const name of ["ping", "smtp", "domain"]) expect(html).toContain(`>${name}<`);
  });

  it("each field is refused with the field and the rule where it does not belong", async () => {
    const bad = async (body: Record<string, unknown>) =>
      (await s.call("POST", "/api/v1/monitors", { name: "bad", interval_sec: 30, ...body })).body.error.details;
    expect(await bad({ type: "ping", url: "ping://127.0.0.1:80" })).toEqual([
      { field: "url", message: "must be ping://host (a name or an IP address) for ping monitors, with no port" },
    ]);
    expect(await bad({ type: "smtp", url: "http://mx.example" })).toEqual([
      expect.objectContaining({ field: "url", message: expect.stringContaining("must be smtp://host[:port]") }),
    ]);
    expect(await bad({ type: "domain", url: "domain://127.0.0.1" })).toEqual([
      expect.objectContaining({ field: "url" }),
    ]);
    expect(await bad({ type: "http", url: "http://x.example", ping_count: 3 })).toEqual([
      { field: "ping_count", message: "is only allowed for ping monitors, not http" },
    ]);
    expect(await bad({ type: "smtp", url: "smtps://mx.example", smtp_starttls: true })).toEqual([
      expect.objectContaining({ field: "smtp_starttls" }),
    ]);
    expect(await bad({ type: "tcp", url: "tcp://x.example:1", domain_expiry_days: 30 })).toEqual([
      { field: "domain_expiry_days", message: "is only allowed for http, keyword, domain monitors, not tcp" },
    ]);
    expect(await bad({ type: "ping", url: "ping://x.example", ping_count: 21 })).toEqual([
      { field: "ping_count", message: "must be between 1 and 20" },
    ]);
    expect(await bad({ type: "ping", url: "ping://x.example", body: "x" })).toEqual([
      expect.objectContaining({ field: "body" }),
    ]);
  });
});
