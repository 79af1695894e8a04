import { ASSERTION_DEFAULTS, MONITOR_EXTENSION_DEFAULTS, type MonitorExtensionSpec } from "../../api";
import { missedPing } from "../push/deadline";
import type { Store } from "../store";
import type { CheckOutcome } from "../store/heartbeats";
import type { HealthPolicy } from "../store/streaks";
import type { ScheduledMonitor } from "../store/monitors";
import { AssertionEvaluator } from "./assertion-pool";
import { probeDns } from "./dns";
import { type ProbeContext, probe } from "./probe";
import { insecureContext, probeHttps } from "./tls";

/** A scheduled monitor with its extension fields (defaults filled in for monitors stored before them). */
export type CheckedMonitor = ScheduledMonitor & MonitorExtensionSpec;

/** The monitor with every extension field, defaults where it has none. */
export function withExtensions(monitor: ScheduledMonitor): CheckedMonitor {
  return { ...MONITOR_EXTENSION_DEFAULTS, ...ASSERTION_DEFAULTS, ...monitor } as CheckedMonitor;
}

/** A heartbeat monitor's deadline is looked at at least every minute (and within its grace). */
const MAX_PUSH_CADENCE_SEC = 60;

/**
 * How often the checker runs the monitor: every `interval_sec`, except heartbeat monitors, whose
 * deadline is looked at often enough to notice a missed ping within the grace (each look is one
 * indexed query; a down check is still recorded only once per `interval_sec`).
 */
export function cadenceMs(scheduled: ScheduledMonitor): number {
  const m = withExtensions(scheduled);
  if ((m.type as string) !== "heartbeat") return m.interval_sec * 1000;
  return Math.max(1, Math.min(m.interval_sec, m.grace_sec || m.interval_sec, MAX_PUSH_CADENCE_SEC)) * 1000;
}

/**
 * Runs the check that fits the monitor's type: HTTP, keyword and TCP probes, https with
 * certificate checks, DNS lookups, and the ping deadline of heartbeat monitors.
 */
export class CheckRunner {
  private insecure?: ProbeContext;
  private readonly evaluator = new AssertionEvaluator();
  private readonly ctx: ProbeContext;

  constructor(
    /** The server's store; none in an agent (which runs no heartbeat monitor and decides no policy). */
    private readonly store: Store | undefined,
    ctx: ProbeContext,
  ) {
    this.ctx = { ...ctx, evaluator: ctx.evaluator ?? this.evaluator };
  }

  /** The outcome to record, or undefined when there is nothing to record (a ping not yet due). */
  async run(scheduled: ScheduledMonitor, now = Date.now()): Promise<CheckOutcome | undefined> {
    const monitor = withExtensions(scheduled);
    switch (monitor.type as string) {
      case "heartbeat":
        if (!this.store) return undefined;
        return classed(await missedPing(this.store.db, monitor, now), "timeout");
      case "dns":
        return withThresholds(classed(await probeDns({ ...monitor, url: monitor.url ?? "" }, this.ctx.allowPrivate), "dns"), monitor);
    }
    if (monitor.url?.startsWith("https://") && (monitor.ssl_expiry_days !== null || !monitor.verify_tls)) {
      const insecure = () => (this.insecure ??= { ...insecureContext(this.ctx.allowPrivate), evaluator: this.evaluator });
      return withThresholds(await probeHttps(this.ctx, insecure, monitor, now), monitor);
    }
    return withThresholds(await probe(this.ctx, monitor), monitor);
  }

  /** How this check moves the monitor's health: its confirmations and any maintenance window now. */
  policy(scheduled: ScheduledMonitor, now = Date.now()): HealthPolicy {
    const monitor = withExtensions(scheduled);
    return {
      confirmations: monitor.confirmations,
      recoveryConfirmations: monitor.recovery_confirmations,
      maintenance: this.store?.maintenanceWindows.inMaintenance(monitor.id, now) ?? false,
    };
  }

  private closing?: Promise<void>;

  /** Closes the insecure-TLS agent and the evaluator pool; a second call waits for the first. */
  close(): Promise<void> {
    this.closing ??= (async () => {
      await this.insecure?.direct.close();
      await this.evaluator.close();
    })();
    return this.closing;
  }
}

/** A failure of a check that names no class gets its type's: a missed ping is late, a DNS check's is dns. */
function classed<T extends CheckOutcome | undefined>(outcome: T, errorClass: "timeout" | "dns"): T {
  return outcome && !outcome.up && !outcome.error_class ? { ...outcome, error_class: errorClass } : outcome;
}

/**
 * The response-time thresholds on a passed check: slower than `max_response_ms` fails it (class
 * `timeout`), slower than `degraded_response_ms` marks it degraded (up, no incident).
 */
export function withThresholds<T extends CheckOutcome>(outcome: T, m: Pick<CheckedMonitor, "degraded_response_ms" | "max_response_ms">): T {
  const ms = outcome.response_time_ms;
  if (!outcome.up || ms === null) return outcome;
  if (m.max_response_ms !== null && ms > m.max_response_ms) {
    return { ...outcome, up: false, error: `responded in ${ms} ms, slower than max_response_ms (${m.max_response_ms})`, error_class: "timeout" };
  }
  if (m.degraded_response_ms !== null && ms > m.degraded_response_ms) return { ...outcome, degraded: true };
  return outcome;
}
