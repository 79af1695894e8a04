import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp } from "../app";
import { type Drift, driftControls } from "./drift";
import { type DryRun, dryRunControl } from "./dry-run";
import { type Fault, startFaultProxy } from "./fault-proxy";
import { faultControls, type Faults } from "./faults";

export type { Drift } from "./drift";
export type { DryRun } from "./dry-run";
export type { MonitorTestResult } from "../../api";
export { type Fault, type FaultProxy, type Storm, type StormCounts, startFaultProxy } from "./fault-proxy";
export type { Faults, Match } from "./faults";
export {
  startVendorReceiver,
  type Vendor,
  type VendorAnswer,
  type VendorReceiver,
  type VendorRequest,
} from "./vendors";

/** Options of `startUptimeServer`. */
export interface UptimeServerOptions {
  /** Fault rules active from the start (more can be added with `faults`). */
  faults?: Fault[];
  /** Monitors an account may have (at least 10); unlimited by default. */
  monitorLimit?: number;
  /** Requests per API key per minute (the API's 600 by default). */
  rateLimit?: number;
  /** Probe active monitors (default false: tests rarely want outbound checks). */
  checks?: boolean;
  /** Lowest `intervalSec` the server accepts (default 30). */
  minIntervalSec?: number;
}

/** A running reference server for a test. */
export interface UptimeServer {
  /** Base URL for the program under test (`uptime:baseUrl`): through the fault proxy. */
  url: string;
  /** The server's own URL, without faults. */
  directUrl: string;
  /** An API key of a fresh account (`uptime:apiKey`). */
  apiKey: string;
  faults: Faults;
  drift: Drift;
  /**
   * Runs one check now of a monitor spec (API form) or of a stored monitor's id, and records
   * nothing: what the monitor would report once live (status, assertions, timings).
   */
  dryRun: DryRun;
  /** Stops the proxy and the server and removes the temporary database. */
  close(): Promise<void>;
}

/**
 * Starts the reference server on a free loopback port with a temporary database, behind a fault
 * proxy: for testing Pulumi programs against a real service instead of mocks.
 */
export async function startUptimeServer(options: UptimeServerOptions = {}): Promise<UptimeServer> {
  const dir = mkdtempSync(join(tmpdir(), "uptime-test-server-"));
  const apiKey = `uk_${randomBytes(24).toString("base64url")}`;
  const app = await buildApp({
    db: join(dir, "uptime.db"),
    devKey: apiKey,
    logger: false,
    allowPrivateTargets: true,
    checker: options.checks ?? false,
    ...(options.monitorLimit === undefined ? {} : { monitorLimit: options.monitorLimit }),
    ...(options.rateLimit === undefined ? {} : { rateLimit: options.rateLimit }),
    ...(options.minIntervalSec === undefined ? {} : { minIntervalSec: options.minIntervalSec }),
  });
  let directUrl: string;
  try {
    directUrl = await app.listen({ port: 0, host: "127.0.0.1" });
  } catch (err) {
    await app.close();
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
  const proxy = await startFaultProxy(directUrl);
  proxy.faults.push(...(options.faults ?? []));
  return {
    url: proxy.url,
    directUrl,
    apiKey,
    faults: faultControls(proxy),
    drift: driftControls(directUrl, apiKey),
    dryRun: dryRunControl(directUrl, apiKey),
    async close() {
      await proxy.close();
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
