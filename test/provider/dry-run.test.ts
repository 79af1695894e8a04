import { describe, expect, it } from "vitest";
import { UptimeClient } from "../../provider/client/client";
import { dryRunMonitor } from "../../provider/client/dry-run";
import { startTarget } from "../support/target";
import { useServer, useStarted } from "../support/use-server";

describe("dryRunMonitor (the client's dry run)", () => {
  const s = useServer();
  const target = useStarted("the target", startTarget);
  const client = () => new UptimeClient({ baseUrl: s.url, apiKey: s.key }, { baseDelayMs: 5, maxDelayMs: 50 });

  it("runs a spec and a stored monitor, and reports a refused spec with the field named", async () => {
    const spec = { name: "c", type: "http" as const, url: target.url, interval_sec: 60 };
    expect(await dryRunMonitor(client(), spec)).toMatchObject({ status: "up", status_code: 200 });
    target.healthy = false;
    const id = (await s.call("POST", "/api/v1/monitors", spec)).body.data.id as string;
    expect(await dryRunMonitor(client(), { id })).toMatchObject({
      status: "down",
      error_class: "http",
      status_code: 503,
    });
    target.healthy = true;
    await expect(dryRunMonitor(client(), { ...spec, url: "ftp://x" })).rejects.toMatchObject({
      code: "validation_failed",
      details: [expect.objectContaining({ field: "url" })],
    });
  });

  it("waits out the per-key cap of 4 dry runs at once instead of failing", async () => {
    target.delayMs = 300;
    const spec = { name: "c", type: "http" as const, url: target.url, interval_sec: 60 };
    const results = await Promise.all(Array.from({ length: 6 }, () => dryRunMonitor(client(), spec)));
    target.delayMs = 0;
    expect(results.map((r) => r.status)).toEqual(Array(6).fill("up"));
  });
});
