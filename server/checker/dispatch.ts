import { retriesElsewhere } from "../../api";
import type { Store } from "../store";
import type { CheckOutcome } from "../store/heartbeats";
import type { HealthPolicy } from "../store/streaks";
import type { ScheduledMonitor } from "../store/monitors";
import { maintenanceAt } from "../store/maintenance-windows";
import { AssertionEvaluator } from "./assertion-pool";
import { type CheckedMonitor, withExtensions } from "./monitor-fields";
import type { CheckContext } from "./monitor-types/monitor-type";
import { monitorMask } from "./monitor-secrets";
import { monitorType } from "./monitor-types/registry";
import type { ProbeContext } from "./probe";
import { withRetries } from "./retry";
import { insecureContext } from "./tls";

/** How often the checker runs the monitor: its type's cadence, every `interval_sec` by default. */
export function cadenceMs(scheduled: ScheduledMonitor): number {
  const m = withExtensions(scheduled);
  return monitorType(m.type).cadenceMs?.(m) ?? m.interval_sec * 1000;
}

/**
 * Runs the check of a monitor through its type's module (see `monitor-types/registry.ts`), with
 * what every type shares: the response-time thresholds and the retry strategy.
 */
export class CheckRunner {
  private insecure?: ProbeContext;
  private readonly evaluator = new AssertionEvaluator();
  private readonly ctx: CheckContext;

  constructor(
    /** The server's store; none in an agent (which runs no heartbeat monitor and decides no policy). */
    private readonly store: Store | undefined,
    probe: ProbeContext,
  ) {
    const probeCtx = { ...probe, evaluator: probe.evaluator ?? this.evaluator };
    const insecure = () =>
      (this.insecure ??= {
        ...insecureContext(probeCtx.allowPrivate),
        evaluator: this.evaluator,
        ownPorts: probeCtx.ownPorts,
      });
    this.ctx = { probe: probeCtx, insecure, store: store };
  }

  /** The outcome to record, or undefined when there is nothing to record (a ping not yet due). */
  async run(scheduled: ScheduledMonitor, now = Date.now()): Promise<CheckOutcome | undefined> {
    const monitor = withExtensions(scheduled);
    const type = monitorType(monitor.type);
    // Thresholds per attempt: a check slower than max_response_ms is a failure a retry may mend.
    // Retries at other locations are the server's to run (agents/retry-elsewhere.ts): one attempt here.
    const bounds = retriesElsewhere(monitor.retry) ? { ...monitor, retry: null } : monitor;
    const outcome = await withRetries(bounds, async () => {
      const outcome = await type.check(monitor, this.ctx, now);
      return outcome && withThresholds(outcome, monitor);
    });
    // Every type's outcome (attempts, steps, browser evidence included), in every spelling of each secret.
    return outcome && monitorMask(monitor).maskDeep(outcome);
  }

  /**
   * How this check moves the monitor's health: its confirmations and any maintenance window now
   * (of `windows`, the specs of the monitor's windows, when the caller read them with it).
   */
  async policy(scheduled: ScheduledMonitor, now = Date.now(), windows?: readonly string[]): Promise<HealthPolicy> {
    const monitor = withExtensions(scheduled);
    return {
      confirmations: monitor.confirmations,
      recoveryConfirmations: monitor.recovery_confirmations,
      maintenance: windows
        ? maintenanceAt(windows, now)
        : ((await this.store?.maintenanceWindows.inMaintenance(monitor.id, now)) ?? false),
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

/**
 * The response-time thresholds on a passed check: slower than `max_response_ms` fails it (class
 * `timeout`), slower than `degraded_response_ms` marks it degraded (up, no incident).
 */
export function withThresholds<T extends CheckOutcome>(
  outcome: T,
  m: Pick<CheckedMonitor, "degraded_response_ms" | "max_response_ms">,
): T {
  const ms = outcome.response_time_ms;
  if (!outcome.up || ms === null) return outcome;
  if (m.max_response_ms !== null && ms > m.max_response_ms) {
    return {
      ...outcome,
      up: false,
      error: `responded in ${ms} ms, slower than max_response_ms (${m.max_response_ms})`,
      error_class: "timeout",
    };
  }
  if (m.degraded_response_ms !== null && ms > m.degraded_response_ms) return { ...outcome, degraded: true };
  return outcome;
}
