import { beforeAll, describe, expect, it } from "vitest";
import * as runtime from "../../provider/runtime";
import { useServer } from "../support/use-server";

type Props = Record<string, unknown>;

describe("provider: heartbeat, DNS, certificate and confirmation fields, and maintenance windows", () => {
  const s = useServer();
  let connection: { baseUrl: string; apiKey: string };
  beforeAll(() => {
    connection = { baseUrl: s.url, apiKey: s.key };
  });

  const failures = async (kind: "Monitor" | "MaintenanceWindow", inputs: Props) =>
    ((await runtime.check(kind, {}, { connection, ...inputs })).failures ?? []).map((f) => f.reason);

  /** A maintenance window that ends before it starts. */
  const backwards = {
    name: "m",
    monitorIds: ["mon_x"],
    startsAt: "2026-01-01T02:00:00Z",
    endsAt: "2026-01-01T01:00:00Z",
  };
  it.each<[string, "Monitor" | "MaintenanceWindow", Props, string[]]>([
    [
      "graceSec",
      "Monitor",
      { name: "j", type: "heartbeat", intervalSec: 60, graceSec: -1 },
      ["graceSec: must be at least 0"],
    ],
    [
      "url of a heartbeat monitor",
      "Monitor",
      { name: "j", type: "heartbeat", url: "https://x.test", intervalSec: 60 },
      ["url: is not allowed for heartbeat monitors (they are pinged, not probed)"],
    ],
    [
      "sslExpiryDays of an http:// monitor",
      "Monitor",
      { name: "w", type: "http", url: "http://x.test", intervalSec: 60, sslExpiryDays: 14 },
      ["sslExpiryDays: is only allowed for https:// monitors"],
    ],
    [
      "dnsExpectedValues and dnsResolver",
      "Monitor",
      { name: "d", type: "dns", url: "dns://x.test", intervalSec: 60, dnsExpectedValues: ["x"], dnsResolver: "a.b" },
      [
        "dnsExpectedValues[0]: must be an IPv4 address for A records",
        "dnsResolver: must be an IP address, optionally with :port ([v6]:port)",
      ],
    ],
    [
      "confirmations",
      "Monitor",
      { name: "c", type: "http", url: "http://x.test", intervalSec: 60, confirmations: 11 },
      ["confirmations: must be between 1 and 10"],
    ],
    [
      "timeZone of a window",
      "MaintenanceWindow",
      { ...backwards, timeZone: "Nowhere/Land" },
      ["timeZone: must be an IANA time zone such as UTC or Europe/Berlin"],
    ],
    ["endsAt of a window", "MaintenanceWindow", backwards, ["endsAt: must be after the start (2026-01-01T02:00:00Z)"]],
    [
      "monitorIds, startsAt and rrule of a window",
      "MaintenanceWindow",
      { ...backwards, monitorIds: [], startsAt: "x", rrule: "FREQ=SOMETIMES" },
      [
        "monitorIds: must list at least one monitor",
        "startsAt: must be an RFC 3339 timestamp",
        "rrule: FREQ must be YEARLY, MONTHLY, WEEKLY, DAILY, HOURLY, MINUTELY or SECONDLY",
      ],
    ],
  ])("check names the property and the rule: %s", async (_, kind, inputs, reasons) => {
    expect(await failures(kind, inputs)).toEqual(reasons);
  });

  it("issues the push URL once, keeps it through updates and reads, and shows no diff for values written another way", async () => {
    const inputs: Props = { name: "job", type: "heartbeat", intervalSec: 3600, connection };
    const created = await runtime.create("Monitor", inputs);
    const pushUrl = created.outs?.pushUrl as string;
    expect(pushUrl).toMatch(/\/api\/push\/pt_/);
    const changed = { ...inputs, graceSec: 120 };
    expect((await runtime.diff("Monitor", created.id, created.outs as Props, changed)).changes).toBe(true);
    const updated = await runtime.update("Monitor", created.id, created.outs as Props, changed);
    expect(updated.outs?.pushUrl).toBe(pushUrl);
    const read = await runtime.read("Monitor", created.id, updated.outs as Props);
    expect(read.props?.pushUrl).toBe(pushUrl);
    expect(read.inputs).not.toHaveProperty("pushUrl");
    expect((await runtime.diff("Monitor", created.id, read.props as Props, changed)).changes).toBe(false);

    const dns: Props = {
      name: "d",
      type: "dns",
      url: "dns://x.test",
      intervalSec: 60,
      dnsExpectedValues: ["192.0.2.2", "192.0.2.1", "192.0.2.1"],
      connection,
    };
    const d = await runtime.create("Monitor", dns);
    const dRead = await runtime.read("Monitor", d.id, d.outs as Props);
    expect(dRead.props?.dnsExpectedValues).toEqual(["192.0.2.1", "192.0.2.2"]);
    expect((await runtime.diff("Monitor", d.id, dRead.props as Props, dns)).changes).toBe(false);

    const window: Props = {
      name: "w",
      monitorIds: [d.id, created.id],
      startsAt: "2026-01-04T01:00:00+00:00",
      endsAt: "2026-01-04T02:00:00Z",
      rrule: "FREQ=WEEKLY",
      connection,
    };
    const w = await runtime.create("MaintenanceWindow", window);
    const wRead = await runtime.read("MaintenanceWindow", w.id, w.outs as Props);
    expect(wRead.props).toMatchObject({
      timeZone: "UTC",
      startsAt: "2026-01-04T01:00:00+00:00",
      active: expect.any(Boolean),
    });
    expect((await runtime.diff("MaintenanceWindow", w.id, wRead.props as Props, window)).changes).toBe(false);
    expect(
      (await runtime.diff("MaintenanceWindow", w.id, wRead.props as Props, { ...window, timeZone: "Europe/Berlin" }))
        .changes,
    ).toBe(true);
    await runtime.remove("MaintenanceWindow", w.id, wRead.props as Props);
    expect((await s.call("GET", `/api/v1/maintenance-windows/${w.id}`)).status).toBe(404);
    for (const id of [created.id, d.id]) await runtime.remove("Monitor", id, { connection });
  });
});
