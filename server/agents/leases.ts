import type { FastifyBaseLogger } from "fastify";
import { type Lease, type Leases, locationsOf, type ResultStatus, type ResultsRequest } from "../../api";
import { startDue } from "../checker/cadence";
import type { CheckObserver } from "../checker/checker";
import type { Notifier } from "../notify/notifier";
import type { Store } from "../store";
import type { Principal } from "../store/keys";
import type { CheckOutcome } from "../store/heartbeats";
import type { ScheduledMonitor } from "../store/monitors";
import { type HeapClass, LeaseQueue, parseCheckKey } from "./lease-queue";
import type { Locations } from "./locations";
import { RetryElsewhere } from "./retry-elsewhere";
import { type TakenTrial, Trials } from "./trials";

/** A waiting lease request looks again at least this often (a monitor created meanwhile is due at once). */
const POLL_MS = 100;

/** Figures of the agent schedule, for the benchmark and the logs. */
export interface LeaseStats {
  scheduled: number;
  leased: number;
  recorded: number;
  duplicates: number;
  refused: number;
  expired: number;
  lags: number[];
}

/** What placing a monitor in the agents' schedule needs. */
type Placement = Pick<ScheduledMonitor, "id" | "account_id" | "interval_sec" | "locations"> & { type: string };

const queueId = (accountId: string, location: string) => `${accountId}\u0000${location}`;

const iso = (ms: number) => new Date(ms).toISOString();
const trialLease = (t: TakenTrial): Lease => ({
  check_key: t.checkKey,
  due_at: iso(t.due),
  expires_at: iso(t.expires),
  monitor: t.monitor,
});

/**
 * The work of agent locations: one lease queue per account and location, filled from the active
 * monitors (heartbeat monitors stay with the built-in checker, which judges their pings), emptied
 * by agents' lease requests, answered by their results.
 */
export class LeaseService {
  /** Dry runs waiting for an agent of their location (`POST …/test?location=`). */
  readonly trials = new Trials();
  /** Retries at other locations (`retry.location: "other"`), of agents' and the built-in checker's checks. */
  readonly elsewhere: RetryElsewhere;
  private readonly queues = new Map<string, LeaseQueue>();
  private Heap?: HeapClass;
  private stopped = false;
  private readonly counts = { leased: 0, recorded: 0, duplicates: 0, refused: 0 };
  private readonly lags: number[] = [];

  constructor(
    private readonly store: Store,
    private readonly locations: Locations,
    private readonly notifier: Notifier,
    private readonly log: FastifyBaseLogger,
    readonly leaseMs: number,
    private readonly observer?: CheckObserver,
    /** One unrecorded check by the built-in checker: a retry at its location. */
    runHere: (monitor: ScheduledMonitor) => Promise<CheckOutcome | undefined> = async () => undefined,
  ) {
    this.elsewhere = new RetryElsewhere({ locations, trials: this.trials, runHere });
  }

  /** Fills the queues from the database: each location's next check from its last result there. */
  async start(now = Date.now()): Promise<void> {
    this.Heap = (await import("tinyqueue")).default as unknown as HeapClass;
    const last = (await this.store.db
      .prepare("SELECT monitor_id, location, last_checked_at FROM location_health")
      .all()) as {
      monitor_id: string;
      location: string;
      last_checked_at: number;
    }[];
    const lastAt = new Map(last.map((r) => [`${r.monitor_id}/${r.location}`, r.last_checked_at]));
    for (const m of await this.store.monitors.placements()) this.place(m, now, (loc) => lastAt.get(`${m.id}/${loc}`));
    this.log.info({ checks: [...this.queues.values()].reduce((n, q) => n + q.size, 0) }, "agent schedule started");
  }

  /** Call after a monitor was created, changed, paused, resumed or deleted. */
  async refresh(id: string): Promise<void> {
    if (this.stopped || !this.Heap) return;
    const monitor = await this.store.monitors.find(id);
    const wanted = new Set(monitor && monitor.status === "active" ? this.agentLocations(monitor) : []);
    for (const q of this.queues.values()) if (q.has(id) && !wanted.has(q.location)) q.delete(id);
    // A new or resumed monitor is checked at once (as the built-in checker does).
    if (monitor && wanted.size > 0) this.place(monitor, Date.now(), () => undefined, false);
  }

  stop(): void {
    this.stopped = true;
  }

  /**
   * Leases up to `max` due checks of the agent's location; with none due, waits up to `waitMs` for
   * one. `hungUp` aborts when the agent's connection closed: a dead agent's waiting request must
   * take nothing, or the checks it takes (an expired lease among them) wait out another lease.
   */
  async lease(
    principal: Principal,
    agentId: string,
    max: number,
    waitMs: number,
    hungUp?: AbortSignal,
    allowPrivate?: boolean,
    browser?: boolean,
  ): Promise<Leases> {
    const location = principal.location as string;
    const deadline = Date.now() + waitMs;
    for (;;) {
      const gone = this.stopped || hungUp?.aborted === true;
      if (!gone) await this.locations.touch(agentId, principal, Date.now(), allowPrivate, browser);
      const queue = this.queues.get(queueId(principal.accountId, location));
      const now = Date.now();
      // Dry runs first: someone is waiting for each.
      const trials = gone ? [] : this.trials.take(principal.accountId, location, max, now);
      const taken =
        queue && !gone && trials.length < max ? queue.take(agentId, max - trials.length, now, this.leaseMs) : [];
      if (trials.length + taken.length > 0 || now >= deadline || gone) {
        this.counts.leased += taken.length;
        const leases = (
          await Promise.all(
            taken.map(async (l) => await this.describe(principal.accountId, l.checkKey, l.monitorId, l.due, l.expires)),
          )
        ).filter((l) => l !== undefined);
        return { location, lease_ms: this.leaseMs, leases: [...trials.map(trialLease), ...leases] };
      }
      const next = queue?.nextDue();
      const sleep = Math.max(1, Math.min(deadline - now, POLL_MS, next === undefined ? POLL_MS : next - now));
      await new Promise((resolve) => setTimeout(resolve, sleep));
    }
  }

  /**
   * Records an agent's results: each once, refused when the check is no longer this location's.
   * One transaction for the batch (each result a savepoint in it): a commit per result cost more
   * than recording it.
   */
  async results(principal: Principal, body: ResultsRequest): Promise<ResultStatus[]> {
    await this.locations.touch(body.agent_id, principal);
    return await this.store.db.transaction(async () => {
      const statuses: ResultStatus[] = [];
      for (const r of body.results) statuses.push(await this.record(principal, r));
      return statuses;
    });
  }

  /** The check keys agent `agentId` holds leases on now. */
  held(agentId: string): string[] {
    return [...this.queues.values()].flatMap((q) => q.heldBy(agentId));
  }

  stats(): LeaseStats {
    const qs = [...this.queues.values()];
    return {
      scheduled: qs.reduce((n, q) => n + q.size, 0),
      expired: qs.reduce((n, q) => n + q.expired, 0),
      ...this.counts,
      lags: [...this.lags],
    };
  }

  resetStats(): void {
    this.lags.length = 0;
    Object.assign(this.counts, { leased: 0, recorded: 0, duplicates: 0, refused: 0 });
    for (const q of this.queues.values()) q.expired = 0;
  }

  private async record(principal: Principal, r: ResultsRequest["results"][number]): Promise<ResultStatus> {
    const refuse = (reason: string): ResultStatus => {
      this.counts.refused++;
      return { check_key: r.check_key, status: "refused", reason };
    };
    const key = parseCheckKey(r.check_key);
    if (!key) return refuse("not a check key of this server (<monitor>/<location>/<due ms>)");
    if (key.location !== principal.location)
      return refuse(`the check is location ${key.location}'s, this key is location ${principal.location}'s`);
    if (Trials.isTrialKey(r.check_key)) {
      return this.trials.answer(r.check_key, principal.accountId, key.location, fromPosted(r.outcome))
        ? { check_key: r.check_key, status: "recorded" }
        : refuse("the dry run is over (answered already, or it timed out)");
    }
    this.queues.get(queueId(principal.accountId, key.location))?.complete(r.check_key);
    // The cached read (no SQL, no secret opened) of the account's monitor.
    const stored = await this.store.monitors.get(principal.accountId, key.monitorId);
    if (!stored) return refuse(`monitor ${key.monitorId} was deleted`);
    const monitor: ScheduledMonitor = { ...stored, account_id: principal.accountId };
    if (monitor.status !== "active") return refuse(`monitor ${key.monitorId} is paused`);
    if (!this.agentLocations(monitor).includes(key.location))
      return refuse(`monitor ${key.monitorId} is no longer checked at location ${key.location}`);
    if (this.elsewhere.has(r.check_key)) {
      this.counts.duplicates++;
      return { check_key: r.check_key, status: "duplicate" };
    }
    const at = Date.parse(r.checked_at);
    const posted = fromPosted(r.outcome);
    if (this.elsewhere.wants(monitor, posted)) {
      // Retried at the monitor's other locations first; the run is recorded when they answered.
      this.elsewhere.start(r.check_key, monitor, key.location, posted, (outcome) =>
        this.commit(monitor, key, r, outcome, at),
      );
      return { check_key: r.check_key, status: "recorded" };
    }
    return this.commit(monitor, key, r, posted, at);
  }

  /** Records the run of check `r` at its location with its outcome (after any retries elsewhere). */
  private async commit(
    monitor: ScheduledMonitor,
    key: { location: string; due: number },
    r: ResultsRequest["results"][number],
    outcome: CheckOutcome,
    at: number,
  ): Promise<ResultStatus> {
    const { location } = key;
    const policy = {
      confirmations: monitor.confirmations,
      recoveryConfirmations: monitor.recovery_confirmations,
      maintenance: await this.store.maintenanceWindows.inMaintenance(monitor.id, at),
      ...this.locations.policy(monitor, location),
    };
    const recorded = await this.store.recordCheck(monitor.id, outcome, at, policy, r.check_key);
    if (!recorded) {
      this.counts.refused++;
      return { check_key: r.check_key, status: "refused", reason: `monitor ${monitor.id} was deleted` };
    }
    if (recorded.duplicate) {
      this.counts.duplicates++;
      return { check_key: r.check_key, status: "duplicate" };
    }
    this.counts.recorded++;
    this.lag(Date.parse(r.started_at) - key.due);
    this.observer?.checked(monitor.type, outcome.up, outcome.response_time_ms ?? 0, location);
    if (recorded.transition)
      await this.notifier.notify(
        monitor,
        `monitor.${recorded.transition}`,
        recorded.heartbeat,
        recorded.failedLocations,
      );
    return { check_key: r.check_key, status: "recorded" };
  }

  private lag(ms: number): void {
    this.observer?.lag(ms);
    if (this.lags.length >= 200_000) this.lags.splice(0, 100_000);
    this.lags.push(ms);
  }

  /** The monitor's locations served by agents (the built-in checker's, while it runs, is not). */
  private agentLocations(m: Placement): string[] {
    if ((m.type as string) === "heartbeat") return [];
    return locationsOf(m, this.locations.builtin).filter(
      (l) => !(this.locations.builtinRuns && l === this.locations.builtin),
    );
  }

  private place(m: Placement, now: number, lastAt: (location: string) => number | undefined, spread = true): void {
    // Heartbeat monitors have no agent location (see agentLocations): an interval is all it takes.
    const intervalMs = m.interval_sec * 1000;
    for (const location of this.agentLocations(m)) {
      const id = queueId(m.account_id, location);
      let queue = this.queues.get(id);
      if (!queue) this.queues.set(id, (queue = new LeaseQueue(this.Heap as HeapClass, location)));
      const last = lastAt(location);
      const first = startDue(`${m.id}/${location}`, intervalMs, last, now, spread && "unchecked");
      queue.set(m.id, intervalMs, Math.round(first));
    }
  }

  private async describe(
    accountId: string,
    checkKey: string,
    monitorId: string,
    due: number,
    expires: number,
  ): Promise<Lease | undefined> {
    const monitor = await this.store.monitors.get(accountId, monitorId);
    if (!monitor) return undefined;
    return {
      check_key: checkKey,
      due_at: new Date(due).toISOString(),
      expires_at: new Date(expires).toISOString(),
      monitor,
    };
  }
}

/** A posted outcome as the store takes it: a browser run's base64 screenshot as bytes, if a PNG. */
function fromPosted(outcome: ResultsRequest["results"][number]["outcome"]): CheckOutcome {
  const { screenshot_png, ...rest } = outcome;
  const png = screenshot_png ? Buffer.from(screenshot_png, "base64") : null;
  return { ...rest, ...(png && png.subarray(0, 8).equals(PNG_SIGNATURE) ? { screenshot: png } : {}) } as CheckOutcome;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
