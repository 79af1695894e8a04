import { createSocket } from "node:dgram";
import { assertTargetAllowed } from "../../outbound";
import type { CheckedMonitor } from "../monitor-fields";
import { guarded, type ProbeContext, type ProbeResult } from "../probe";
import { allowedAddress, judgeReply, timedOut } from "../protocols/reply";
import type { MonitorType } from "./monitor-type";

/**
 * Sends `body` as one datagram to the allowed address of `udp://host:port` and judges the first
 * reply from that address (an ICMP port-unreachable surfaces as ECONNREFUSED on the connected
 * socket); no reply within the timeout is a timeout.
 */
export function probeUdp(monitor: CheckedMonitor, ctx: ProbeContext): Promise<ProbeResult> {
  return guarded(monitor.timeout_sec, async (started) => {
    const url = new URL(monitor.url ?? "");
    assertTargetAllowed(url, ctx.allowPrivate);
    const { address, family } = await allowedAddress(url.hostname, ctx);
    const reply = await new Promise<string>((resolve, reject) => {
      const socket = createSocket(family === 6 ? "udp6" : "udp4");
      const timer = setTimeout(() => done(timedOut(monitor.timeout_sec)), monitor.timeout_sec * 1000);
      const done = (err: Error | null, text?: string) => {
        clearTimeout(timer);
        socket.removeAllListeners();
        socket.close();
        if (err) reject(err);
        else resolve(text ?? "");
      };
      socket.once("error", (err) => done(err));
      socket.once("message", (data) => done(null, data.toString("utf8")));
      // Connected, so only the target's replies arrive and an unreachable port is reported.
      socket.connect(Number(url.port), address, () => socket.send(monitor.body ?? ""));
    });
    return judgeReply(ctx, monitor, started, reply);
  });
}

/** UDP monitors: up when a reply to the datagram arrives within the timeout and the assertions pass. */
export const udpType: MonitorType = {
  name: "udp",
  probes: true,
  check: (monitor, ctx) => probeUdp(monitor, ctx.probe),
};
