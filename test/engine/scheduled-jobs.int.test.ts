import { request } from "undici";
import { describe, expect, it } from "vitest";
import { useServer, useStack } from "../support/engine-suite";

describe("examples/scheduled-jobs: heartbeat, certificate, DNS, confirmation and maintenance", () => {
  const s = useServer();
  // The test destroys what it made.
  const { stack } = useStack({ program: "examples/scheduled-jobs", name: "scheduled-jobs", server: s });

  const list = async (path: string) => (await s.call("GET", path)).body.data as Record<string, unknown>[];

  it("deploys, keeps the push URL secret, previews clean after a refresh, reports drift and destroys", async () => {
    const up = await stack.up({ onOutput: (l) => process.stdout.write(l) });
    expect(up.summary.resourceChanges).toEqual({ create: 6 });

    const monitors = await list("/api/v1/monitors");
    expect(monitors.map((m) => m.type).sort()).toEqual(["dns", "heartbeat", "http"]);
    expect(monitors.find((m) => m.type === "http")).toMatchObject({
      ssl_expiry_days: 14,
      confirmations: 3,
      recovery_confirmations: 2,
      verify_tls: true,
    });
    expect(monitors.find((m) => m.type === "heartbeat")).toMatchObject({
      url: null,
      interval_sec: 86_400,
      grace_sec: 3_600,
    });
    expect(monitors.find((m) => m.type === "dns")).toMatchObject({
      dns_record_type: "A",
      dns_expected_values: ["93.184.215.14"],
      dns_resolver: "1.1.1.1",
    });
    const [window] = await list("/api/v1/maintenance-windows");
    expect(window).toMatchObject({ name: "Sunday deploys", rrule: "FREQ=WEEKLY;BYDAY=SU", time_zone: "Europe/Berlin" });
    expect((window?.monitor_ids as string[]).length).toBe(2);

    // The crontab line carries the push URL, a secret; the state holds it only encrypted.
    const crontab = up.outputs.crontab;
    expect(crontab?.secret).toBe(true);
    const pushUrl = /curl .* (http\S+)/.exec(String(crontab?.value))?.[1] as string;
    expect(pushUrl).toMatch(new RegExp(`^${s.url}/api/push/pt_`));
    const state = (await stack.exportStack()).deployment as {
      resources: { type: string; outputs?: Record<string, unknown> }[];
    };
    const backup = state.resources.find((r) => r.type.endsWith("uptime:Monitor") && r.outputs?.type === "heartbeat");
    // Pulumi's secret signature: the state file holds this value encrypted.
    expect(backup?.outputs?.pushUrl).toMatchObject({
      "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270",
    });
    const ping = await request(pushUrl, { method: "POST" });
    expect(ping.statusCode).toBe(200);
    await ping.body.dump();
    const backupId = (up.outputs.monitorIds?.value as { backup: string }).backup;
    expect((await s.call("GET", `/api/v1/monitors/${backupId}`)).body.data.health).toBe("up");

    await stack.refresh();
    expect((await stack.preview()).changeSummary).toEqual({ same: 6 });
    // The push URL survives the refresh (the server shows it only once).
    expect((await stack.outputs()).crontab?.value).toBe(crontab?.value);

    // A change made outside Pulumi is drift, and `up` puts the declaration back.
    await s.call("PATCH", `/api/v1/monitors/${(up.outputs.monitorIds?.value as { homepage: string }).homepage}`, {
      confirmations: 1,
    });
    await s.call("PATCH", `/api/v1/maintenance-windows/${window?.id}`, { time_zone: "UTC" });
    await stack.refresh();
    expect((await stack.preview()).changeSummary).toEqual({ same: 4, update: 2 });
    expect((await stack.up()).summary.resourceChanges).toEqual({ same: 4, update: 2 });
    expect((await list("/api/v1/monitors")).find((m) => m.type === "http")?.confirmations).toBe(3);

    await stack.destroy();
    expect(await list("/api/v1/monitors")).toEqual([]);
    expect(await list("/api/v1/maintenance-windows")).toEqual([]);
    // Nine engine operations on two shared cores.
  }, 600_000);
});
