import { locationsOf, retriesElsewhere } from "../../api";
import { withExtensions } from "../checker/monitor-fields";
import { type Attempted, retryable, withRetries } from "../checker/retry";
import type { CheckOutcome } from "../store/heartbeats";
import type { ScheduledMonitor } from "../store/monitors";
import type { Locations } from "./locations";
import type { Trials } from "./trials";

/** What running a retry at other locations needs of the server. */
export interface RetryPlaces {
  locations: Locations;
  /** Dry runs at agent locations: a retry at an agent location is one. */
  trials: Trials;
  /** One check by the built-in checker, recorded nowhere (a retry at its location). */
  runHere(monitor: ScheduledMonitor): Promise<CheckOutcome | undefined>;
}

/**
 * Retries at other locations (`retry.location: "other"`): a check that failed at one location is
 * tried again at the next of the monitor's other live locations, in turn, with the strategy's
 * delays and bounds; the run is recorded once, for the location whose check failed, with every
 * attempt and where it ran. A retry at an agent location is handed to its agents as a dry run is;
 * with no other location live, or when one does not answer, it runs where the check failed. Tells
 * a network problem of one location from an outage everyone sees.
 */
export class RetryElsewhere {
  /** Runs under way, by check key: a result sent twice starts no second run. */
  private readonly running = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();

  constructor(private readonly places: RetryPlaces) {}

  /** Whether this failed outcome of `monitor` is retried at its other locations. */
  wants(monitor: ScheduledMonitor, outcome: CheckOutcome): boolean {
    const { retry } = withExtensions(monitor);
    return !outcome.up && retry !== null && retriesElsewhere(retry) && retryable(outcome, retry);
  }

  /** Whether the run of `checkKey` is under way. */
  has(checkKey: string): boolean {
    return this.running.has(checkKey);
  }

  /** The run's outcome: `first` (the failed check at `failedAt`) and the retries after it. */
  retry(monitor: ScheduledMonitor, failedAt: string, first: CheckOutcome): Promise<CheckOutcome> {
    const once: ScheduledMonitor = { ...monitor, retry: null };
    const attempt = async (n: number): Promise<Attempted | undefined> =>
      n === 0 ? { ...first, location: failedAt } : this.attemptAt(once, this.placeOf(monitor, failedAt, n), failedAt);
    return withRetries(withExtensions(monitor), attempt, { signal: this.stopping.signal }) as Promise<CheckOutcome>;
  }

  /**
   * Runs the retries of an agent's failed result in the background and hands the run's outcome to
   * `record`; a second call with the same `checkKey` while it runs does nothing (false).
   */
  start(
    checkKey: string,
    monitor: ScheduledMonitor,
    failedAt: string,
    first: CheckOutcome,
    record: (outcome: CheckOutcome) => Promise<unknown>,
  ): boolean {
    if (this.running.has(checkKey)) return false;
    const run = this.retry(monitor, failedAt, first)
      .then(record, () => record(first))
      .then(() => undefined)
      .finally(() => this.running.delete(checkKey));
    this.running.set(checkKey, run);
    return true;
  }

  /** Ends the runs under way with the attempts made so far, and waits until they are recorded. */
  async stop(): Promise<void> {
    this.stopping.abort();
    await Promise.allSettled([...this.running.values()]);
  }

  /** The location of retry `n`: the monitor's other live locations in turn, from the one after `failedAt`. */
  private placeOf(monitor: ScheduledMonitor, failedAt: string, n: number): string {
    const all = locationsOf(monitor, this.places.locations.builtin);
    const live = this.places.locations.live(monitor.account_id);
    const from = all.indexOf(failedAt);
    const others = [...all.slice(from + 1), ...all.slice(0, Math.max(0, from))].filter(
      (l) => l !== failedAt && live.has(l),
    );
    return others.length === 0 ? failedAt : (others[(n - 1) % others.length] as string);
  }

  private async attemptAt(
    monitor: ScheduledMonitor,
    location: string,
    failedAt: string,
  ): Promise<Attempted | undefined> {
    const { locations, trials, runHere } = this.places;
    if (location === locations.builtin && locations.builtinRuns) {
      const outcome = await runHere(monitor);
      return outcome && { ...outcome, location };
    }
    try {
      return { ...(await trials.run(monitor.account_id, location, monitor, this.stopping.signal)), location };
    } catch {
      // The location went away meanwhile: the retry runs where the check failed, when that is another place.
      if (location === failedAt || this.stopping.signal.aborted) return undefined;
      return this.attemptAt(monitor, failedAt, failedAt);
    }
  }
}
