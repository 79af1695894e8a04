import { spawn } from "node:child_process";
import { DEFAULT_PING_COUNT } from "../../../api";
import { assertTargetAllowed } from "../../outbound";
import type { CheckedMonitor } from "../monitor-fields";
import { guarded, type ProbeContext, type ProbeResult } from "../probe";
import { judgeNetworkReply } from "../protocols/network-reply";
import { allowedAddress } from "../protocols/reply";
import type { MonitorType } from "./monitor-type";

/**
 * Seconds between echo requests: iputils' floor for users without CAP_NET_ADMIN, so a check of
 * `ping_count` requests takes about `count × 0.2 s` plus the wait for the last reply.
 */
const INTERVAL_SEC = 0.2;

/** What one run of `ping` counted. */
export interface PingStats {
  transmitted: number;
  received: number;
  packet_loss_pct: number;
  rtt_min_ms: number | null;
  rtt_avg_ms: number | null;
  rtt_max_ms: number | null;
}

/**
 * Reads the summary iputils' `ping -n` prints: `3 packets transmitted, 2 received, … 33% packet
 * loss` and `rtt min/avg/max/mdev = 0.03/0.04/0.05/0.01 ms` (absent when nothing came back).
 */
export function parsePingSummary(out: string): PingStats | undefined {
  const counts = /(\d+) packets transmitted, (\d+) (?:packets )?received.*?([\d.]+)% packet loss/.exec(out);
  if (!counts) return undefined;
  const rtt = /= ([\d.]+)\/([\d.]+)\/([\d.]+)\//.exec(out);
  const num = (s: string | undefined) => (s === undefined ? null : Number(s));
  return {
    transmitted: Number(counts[1]),
    received: Number(counts[2]),
    packet_loss_pct: Number(counts[3]),
    rtt_min_ms: num(rtt?.[1]),
    rtt_avg_ms: num(rtt?.[2]),
    rtt_max_ms: num(rtt?.[3]),
  };
}

/**
 * Runs the system's `ping` (iputils) at the allowed address of `ping://host`: it needs either
 * the binary with `cap_net_raw` (Debian's `iputils-ping` installs it so) or
 * `net.ipv4.ping_group_range` covering the server's group (unprivileged ICMP sockets).
 */
function runPing(address: string, family: number, count: number, timeoutSec: number): Promise<PingStats> {
  const waitSec = Math.max(1, Math.floor(timeoutSec - (count - 1) * INTERVAL_SEC));
  const args = [
    family === 6 ? "-6" : "-4",
    "-n",
    "-q",
    "-c",
    String(count),
    "-i",
    String(INTERVAL_SEC),
    "-W",
    String(waitSec),
    address,
  ];
  return new Promise((resolve, reject) => {
    const child = spawn("ping", args, { stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    // SIGINT at the timeout: ping stops and still prints its summary of what came back so far
    // (execFile's own timeout would close the pipes first).
    let interrupted = false;
    const timer = setTimeout(() => {
      interrupted = true;
      child.kill("SIGINT");
    }, timeoutSec * 1000);
    const hardStop = setTimeout(() => child.kill("SIGKILL"), timeoutSec * 1000 + 1000);
    child.once("error", (err: Error & { code?: string }) => {
      clearTimeout(timer);
      clearTimeout(hardStop);
      if (err.code === "ENOENT")
        reject(
          Object.assign(
            new Error("the ping binary is not installed on this host (Debian: apt-get install iputils-ping)"),
            { code: "PING_MISSING" },
          ),
        );
      else reject(err);
    });
    child.once("close", () => {
      clearTimeout(timer);
      clearTimeout(hardStop);
      const stats = parsePingSummary(stdout);
      if (stats) return resolve(stats);
      if (interrupted)
        return reject(Object.assign(new Error(`timed out after ${timeoutSec} s`), { name: "TimeoutError" }));
      reject(
        Object.assign(new Error(`ping failed: ${(stderr || stdout).trim().split("\n").at(-1) ?? "no output"}`), {
          code: "PING_FAILED",
        }),
      );
    });
  });
}

/** Sends `ping_count` echo requests; down when none is answered, else judged by the assertions. */
export function probePing(monitor: CheckedMonitor, ctx: ProbeContext): Promise<ProbeResult> {
  return guarded(monitor.timeout_sec, async (started) => {
    const url = new URL(monitor.url ?? "");
    assertTargetAllowed(url, ctx.allowPrivate);
    const { address, family } = await allowedAddress(url.hostname, ctx);
    const count = monitor.ping_count ?? DEFAULT_PING_COUNT;
    const stats = await runPing(address, family, count, monitor.timeout_sec);
    const response_time_ms = stats.rtt_avg_ms === null ? null : Math.round(stats.rtt_avg_ms);
    const problem =
      stats.received === 0
        ? {
            error: `no reply to ${stats.transmitted} echo requests (100% packet loss)`,
            error_class: "timeout" as const,
          }
        : undefined;
    const timings = { total_ms: Math.round(performance.now() - started) };
    return judgeNetworkReply(ctx, monitor, { reply: { address, ...stats }, response_time_ms, problem, timings });
  });
}

/** ping monitors: up while echo requests are answered and the assertions (loss, round trip) pass. */
export const pingType: MonitorType = {
  name: "ping",
  probes: true,
  check: (monitor, ctx) => probePing(monitor, ctx.probe),
};
