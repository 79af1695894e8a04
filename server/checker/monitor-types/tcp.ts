import { connect } from "node:net";
import { assertTargetAllowed, safeLookup } from "../../outbound";
import { guarded, NO_TIMINGS, type ProbeContext } from "../probe";
import type { MonitorType } from "./monitor-type";

/** TCP monitors: up when a connection to `tcp://host:port` opens within the timeout. */
export const tcpType: MonitorType = {
  name: "tcp",
  probes: true,
  check: (monitor, ctx) =>
    guarded(monitor.timeout_sec, async (started) => {
      const url = new URL(monitor.url ?? "");
      assertTargetAllowed(url, ctx.probe.allowPrivate);
      await tcpConnect(url.hostname, Number(url.port), monitor.timeout_sec * 1000, ctx.probe);
      const ms = Math.round(performance.now() - started);
      return {
        up: true,
        response_time_ms: ms,
        status_code: null,
        error: null,
        error_class: null,
        timings: { ...NO_TIMINGS, connect_ms: ms, total_ms: ms },
      };
    }),
};

function tcpConnect(host: string, port: number, timeoutMs: number, ctx: ProbeContext): Promise<void> {
  return new Promise((resolve, reject) => {
    const lookup = safeLookup(ctx.allowPrivate, ctx.resolve);
    const socket = connect({ host: host.replace(/^\[|\]$/g, ""), port, timeout: timeoutMs, lookup: lookup as never });
    socket.once("connect", () => {
      socket.destroy();
      resolve();
    });
    socket.once("timeout", () => {
      socket.destroy();
      reject(Object.assign(new Error(`timed out after ${Math.round(timeoutMs / 1000)} s`), { name: "TimeoutError" }));
    });
    socket.once("error", (err) => {
      socket.destroy();
      reject(err);
    });
  });
}
