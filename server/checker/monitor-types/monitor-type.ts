import type { Store } from "../../store";
import type { CheckOutcome } from "../../store/heartbeats";
import type { CheckedMonitor } from "../monitor-fields";
import type { ProbeContext } from "../probe";

/** What a monitor type's check may use, the same in the server and in an agent. */
export interface CheckContext {
  /** Dispatchers, outbound policy and assertion evaluator of every probe. */
  probe: ProbeContext;
  /** Dispatchers that accept any certificate (for `verify_tls: false`), made on first use. */
  insecure(): ProbeContext;
  /** The server's store; none in an agent (which runs no heartbeat monitor). */
  store?: Store;
}

/**
 * One kind of monitor: how one check of it runs and what heartbeat it leaves. Adding a type is a
 * module `<type>.ts` of this folder exporting it as `<type>Type`; the build lists it in `index.ts`.
 */
export interface MonitorType {
  /** The monitor's `type`. */
  readonly name: string;
  /**
   * Whether a check makes a request of its own; false for types that are pinged (heartbeat), whose
   * dry run has nothing to run.
   */
  readonly probes: boolean;
  /**
   * Checks `monitor` once at `now`: the outcome its heartbeat records (response-time thresholds
   * are applied by the caller), or undefined when there is nothing to record.
   */
  check(monitor: CheckedMonitor, ctx: CheckContext, now: number): Promise<CheckOutcome | undefined>;
  /** How often the checker runs it, in ms; every `interval_sec` when absent. */
  cadenceMs?(monitor: CheckedMonitor): number;
}

/** A failure that names no class gets its type's (a missed ping is late, a DNS check's is dns). */
export function classed<T extends CheckOutcome | undefined>(outcome: T, errorClass: "timeout" | "dns"): T {
  return outcome && !outcome.up && !outcome.error_class ? { ...outcome, error_class: errorClass } : outcome;
}
