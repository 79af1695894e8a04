import { missedPing } from "../../push/deadline";
import { classed, type MonitorType } from "./monitor-type";

/** A heartbeat monitor's deadline is looked at at least every minute (and within its grace). */
const MAX_PUSH_CADENCE_SEC = 60;

/**
 * Heartbeat (push) monitors: the job pings the server; a check looks at the deadline of the last
 * ping, and records a down check once it has passed (nothing while a ping is not yet due).
 */
export const heartbeatType: MonitorType = {
  name: "heartbeat",
  probes: false,
  check: async (monitor, ctx, now) =>
    ctx.store ? classed(await missedPing(ctx.store.db, monitor, now), "timeout") : undefined,
  // The deadline is looked at often enough to notice a missed ping within the grace (each look is
  // one indexed query; a down check is still recorded only once per `interval_sec`).
  cadenceMs: (m) => Math.max(1, Math.min(m.interval_sec, m.grace_sec || m.interval_sec, MAX_PUSH_CADENCE_SEC)) * 1000,
};
