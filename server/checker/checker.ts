import type { FastifyBaseLogger } from "fastify";
import type { Notifier } from "../notify/notifier";
import type { Store } from "../store";
import type { CheckOutcome } from "../store/heartbeats";
import type { CheckRead, ScheduledMonitor } from "../store/monitors";
import type { HealthPolicy } from "../store/streaks";
import { nextDue, startDue } from "./cadence";
import { CheckLeases, LEASE_MARGIN_MS, RESYNC_MS } from "./check-leases";
import { CheckOwners } from "./check-owners";
import { CheckRunner, cadenceMs } from "./dispatch";
import type { ProbeContext } from "./probe";
import { RecordBatch } from "./record-batch";

interface Slot {
  intervalMs: number;
  /**
   * Set while this replica tries the monitor's checks; unset (the slot idle) while another replica
   * owns it (replicas only): its schedule is kept, at no cost per check.
   */
  timer?: NodeJS.Timeout;
  /** The next check's due time: when the timer fires, or would have fired. */
  at: number;
  /** The due time of the check skipped when the slot went idle. */
  skipped?: number;
}

/** Scheduling figures, for the benchmark and the logs. */
export interface CheckerStats {
  /** Active monitors this checker schedules. */
  scheduled: number;
  /** Of those, the monitors whose checks it tries (with a timer): all but those another replica owns. */
  armed: number;
  checks: number;
  lagP50Ms: number | null;
  lagP99Ms: number | null;
  lagMaxMs: number | null;
}

/** The built-in checker's location among the monitors' locations. */
export interface CheckerPlace {
  /** Whether the built-in checker checks this monitor (its locations include the built-in one). */
  checks(monitor: ScheduledMonitor): boolean;
  /** The locations' part of the health policy of a check by the built-in checker. */
  policy(monitor: ScheduledMonitor): Partial<HealthPolicy>;
  /** The run's outcome after any retries at the monitor's other locations (`retry.location: "other"`). */
  retryElsewhere?(monitor: ScheduledMonitor, outcome: CheckOutcome): Promise<CheckOutcome>;
}

/** Told about each check as it happens (the server's metrics). */
export interface CheckObserver {
  /** A check started `ms` after its scheduled time. */
  lag(ms: number): void;
  /** A check of a monitor of `type` was recorded (at `location`, default the built-in checker's); its probe took `ms`. */
  checked(type: string, up: boolean, ms: number, location?: string): void;
}

const LAG_SAMPLES = 10_000;
/**
 * Runs each active monitor every `interval_sec`: one timer per monitor on a fixed cadence
 * (no drift from slow checks), start-up spread by a per-monitor phase, at most `concurrency`
 * probes at once, and never two checks of one monitor at the same time.
 */
export class Checker {
  private readonly slots = new Map<string, Slot>();
  private readonly running = new Set<string>();
  private readonly inFlight = new Set<Promise<void>>();
  private readonly lags: number[] = [];
  private checks = 0;
  private limit?: <T>(fn: () => Promise<T>) => Promise<T>;
  private stopped = false;
  private readonly runner: CheckRunner;
  private readonly batch: RecordBatch;
  /** Set when replicas may share the database (PostgreSQL): each due check is leased. */
  private readonly leases?: CheckLeases;
  private resync?: NodeJS.Timeout;
  /**
   * Each monitor's check lease length as of its last read here (replicas only): the next check
   * takes the lease before it reads the monitor, so that a replica that loses it reads nothing.
   */
  private readonly leaseLengths = new Map<string, number>();
  /** Which monitors this replica tries (replicas only; see check-owners.ts). */
  private readonly owners?: CheckOwners;
  /** The monitors whose slot is idle: their checks are left to the replica that owns them. */
  private readonly idle = new Set<string>();
  /** When another replica was last heard to record a check of each monitor (its row's announcement). */
  private readonly heard = new Map<string, number>();
  /** Monitors created or resumed here: their first check is tried whoever owns them (the lease decides). */
  private readonly first = new Set<string>();
  private startedAt = Date.now();
  /** Monitors whose skipped check runs now that this replica owns them (see `ownersChanged`). */
  private readonly relaunched = new Set<string>();
  /** The due time of a check that came while a relaunched one of its monitor ran: it runs next. */
  private readonly again = new Map<string, number>();

  constructor(
    private readonly store: Store,
    private readonly probeContext: ProbeContext,
    private readonly notifier: Notifier,
    private readonly log: FastifyBaseLogger,
    private readonly concurrency = 64,
    private readonly observer?: CheckObserver,
    /** Where the built-in checker stands: which monitors it checks, and their locations' part of each check's policy. */
    private readonly place?: CheckerPlace,
  ) {
    this.runner = new CheckRunner(store, probeContext);
    if (store.db.engine === "postgres") this.leases = new CheckLeases(store);
    const leases = this.leases;
    this.batch = new RecordBatch(store, leases && ((ids) => leases.finish(ids)));
    if (leases) {
      this.owners = new CheckOwners(
        store.db,
        () => this.ownersChanged(),
        (err) => log.error({ err }, "reading the replicas' checkers failed"),
      );
      store.commits.subscribe(
        ["monitors"],
        () => undefined,
        (id) => this.heard.set(id, Date.now()),
      );
    }
  }

  /**
   * The live checkers changed: the monitors this replica owns now (their owner left or died) are
   * scheduled here again, and the check skipped last runs at once, under its lease (nothing to do
   * when the owner ran it).
   */
  private ownersChanged(): void {
    this.wake(true);
  }

  /**
   * Schedules again the idle monitors whose checks this replica tries now: it owns them, or their
   * owner was not heard for too long (see `leftToOwner`). With `relaunch`, the last check skipped
   * of each monitor it owns now runs at once (its lease decides whether it is still due).
   */
  private wake(relaunch: boolean): void {
    const now = Date.now();
    for (const id of this.idle) {
      const slot = this.slots.get(id);
      if (!slot) {
        this.idle.delete(id);
        continue;
      }
      if (this.leftToOwner(id, slot.intervalMs, false)) continue;
      this.idle.delete(id);
      // The last check skipped here (its due time passed while idle, or the one that made it idle); the next, scheduled.
      const passed = slot.at <= now;
      const skipped = passed ? slot.at + Math.floor((now - slot.at) / slot.intervalMs) * slot.intervalMs : slot.skipped;
      this.schedule(id, slot.intervalMs, passed ? (skipped as number) + slot.intervalMs : slot.at);
      if (relaunch && skipped !== undefined && this.owners?.mine(id)) this.launch(id, skipped, false, true);
    }
  }

  /**
   * Whether the due check of `id` is left to the replica that owns it: this replica does not, and
   * another was heard recording a check of it within two intervals and a lease's margin (else the
   * owner may be stuck, and the lease decides who runs it). A monitor created or resumed here is
   * tried once whoever owns it (`consume`: that try is now).
   */
  private leftToOwner(id: string, intervalMs: number, consume = true): boolean {
    if (!this.owners || (consume ? this.first.delete(id) : this.first.has(id)) || this.owners.mine(id)) return false;
    return Date.now() - (this.heard.get(id) ?? this.startedAt) <= 2 * intervalMs + LEASE_MARGIN_MS;
  }

  /** Resumes the schedule from the database. */
  async start(now = Date.now()): Promise<void> {
    const { default: pLimit } = await import("p-limit");
    this.limit = pLimit(this.concurrency) as never;
    this.startedAt = now;
    // Joined before the first check: the others leave this replica its share at once.
    await this.owners
      ?.start()
      .catch((err: Error) => this.log.error({ err }, "joining the replicas' checkers failed: every check is tried"));
    for (const m of await this.store.monitors.active()) {
      if (this.place && !this.place.checks(m)) continue;
      const intervalMs = cadenceMs(m);
      const last = m.last_checked_at ? Date.parse(m.last_checked_at) : undefined;
      // The lease's length known: the first check takes the lease and reads the monitor in one statement.
      if (this.leases) this.leaseLengths.set(m.id, this.leases.leaseMs(m, intervalMs));
      this.schedule(m.id, intervalMs, startDue(m.id, intervalMs, last, now, "due"));
    }
    this.log.info({ monitors: this.slots.size }, "checker started");
    if (this.leases)
      this.resync = setInterval(() => {
        // Idle monitors whose owner went quiet are tried here (or all, once the read of the checkers is stale).
        this.wake(false);
        void this.follow().catch((err: Error) => this.log.error({ err }, "schedule resync failed"));
      }, RESYNC_MS).unref();
  }

  /** Schedules monitors another replica created, and drops those it deleted or paused. */
  private async follow(): Promise<void> {
    const active = new Set((await this.store.monitors.placements()).map((p) => p.id));
    for (const id of active) if (!this.slots.has(id)) await this.refresh(id);
    for (const id of [...this.slots.keys()]) if (!active.has(id)) await this.refresh(id);
  }

  /** Call after a monitor was created, changed, paused, resumed or deleted. */
  async refresh(id: string): Promise<void> {
    if (this.stopped || !this.limit) return;
    // A monitor written in a transaction under way (a keyed create keeps its answer in it) is
    // scheduled once committed: its first check, at once, must find it.
    if (this.store.db.inTransaction)
      return this.store.db.afterCommit(
        () => void this.refresh(id).catch((err: Error) => this.log.error({ err, monitor: id }, "scheduling failed")),
      );
    const monitor = await this.store.monitors.find(id);
    const slot = this.slots.get(id);
    if (!monitor || monitor.status !== "active" || (this.place && !this.place.checks(monitor))) {
      if (slot) clearTimeout(slot.timer);
      this.slots.delete(id);
      this.leaseLengths.delete(id);
      this.idle.delete(id);
      this.heard.delete(id);
      this.first.delete(id);
      return;
    }
    const intervalMs = cadenceMs(monitor);
    if (this.leases) this.leaseLengths.set(id, this.leases.leaseMs(monitor, intervalMs));
    if (slot?.intervalMs === intervalMs) return;
    if (slot) clearTimeout(slot.timer);
    // A new or resumed monitor is checked right away; a changed interval takes effect from the
    // last check.
    const last = monitor.last_checked_at ? Date.parse(monitor.last_checked_at) : 0;
    const next = slot ? Math.max(Date.now(), last + intervalMs) : Date.now();
    if (!slot && this.owners) this.first.add(id);
    this.schedule(id, intervalMs, next);
  }

  /**
   * Runs one check of `monitor` now, outside the schedule, and records nothing (the dry run):
   * the same runner, outbound policy and assertion pool as a scheduled check.
   */
  runOnce(monitor: ScheduledMonitor, now = Date.now()): Promise<CheckOutcome | undefined> {
    return this.runner.run(monitor, now);
  }

  /**
   * How a result recorded now moves the monitor's health (pings of heartbeat monitors use it).
   * `windows`: the specs of the monitor's maintenance windows, when already read with it.
   */
  async policyFor(monitor: ScheduledMonitor, now = Date.now(), windows?: readonly string[]): Promise<HealthPolicy> {
    return { ...(await this.runner.policy(monitor, now, windows)), ...this.place?.policy(monitor) };
  }

  stats(): CheckerStats {
    const sorted = [...this.lags].sort((a, b) => a - b);
    const at = (q: number) =>
      sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] as number) : null;
    return {
      scheduled: this.slots.size,
      armed: this.slots.size - this.idle.size,
      checks: this.checks,
      lagP50Ms: at(0.5),
      lagP99Ms: at(0.99),
      lagMaxMs: sorted.at(-1) ?? null,
    };
  }

  resetStats(): void {
    this.lags.length = 0;
    this.checks = 0;
  }

  /** Checks under way now (started and not yet recorded): what a shutdown waits for. */
  get checksInFlight(): number {
    return this.inFlight.size;
  }

  /**
   * Stops scheduling and waits for the checks under way: each one that started is recorded (the
   * database stays open until this returns). A check still running when the process has to exit
   * is not recorded, and its monitor, not marked checked, is due at once on the next start.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.resync);
    // The others take this replica's monitors at their next read of the checkers.
    await this.owners?.stop();
    for (const slot of this.slots.values()) clearTimeout(slot.timer);
    this.slots.clear();
    await Promise.allSettled([...this.inFlight]);
    await this.runner.close();
  }

  /**
   * Schedules the check of `id` due `at`: its timer, or, when another replica owns the monitor,
   * an idle slot (`wake` schedules it again when this replica takes it on).
   */
  private schedule(id: string, intervalMs: number, at: number): void {
    if (this.leftToOwner(id, intervalMs, false)) {
      this.slots.set(id, { intervalMs, at });
      this.idle.add(id);
      return;
    }
    const timer = setTimeout(() => this.fire(id, at), Math.max(0, at - Date.now()));
    timer.unref();
    this.slots.set(id, { intervalMs, timer, at });
    this.idle.delete(id);
  }

  private fire(id: string, scheduledAt: number): void {
    const slot = this.slots.get(id);
    if (!slot || this.stopped) return;
    const next = nextDue(scheduledAt, slot.intervalMs, Date.now());
    if (this.leftToOwner(id, slot.intervalMs)) {
      // Another replica owns it now: idle here until this replica takes it on.
      this.slots.set(id, { intervalMs: slot.intervalMs, at: next, skipped: scheduledAt });
      this.idle.add(id);
      return;
    }
    this.schedule(id, slot.intervalMs, next);
    this.launch(id, scheduledAt);
  }

  /**
   * Runs the check of `id` (unless one is running) under the concurrency limit; `takeover`: when
   * another replica's lease on it ran out.
   */
  private launch(id: string, scheduledAt: number, takeover = false, relaunch = false): void {
    if (this.stopped) return;
    if (this.running.has(id)) {
      // A check skipped for a replica that left, run late, must not cost the check due now: it
      // runs next (its lease decides whether it is still due).
      if (this.relaunched.has(id)) this.again.set(id, scheduledAt);
      return;
    }
    this.running.add(id);
    if (relaunch) this.relaunched.add(id);
    const task = (this.limit as NonNullable<typeof this.limit>)(async () => {
      this.recordLag(Date.now() - scheduledAt);
      // On connections of their own: requests never wait behind the checks.
      return await this.store.db.background(async () => {
        // A check skipped for a replica that left: nothing to do when that replica ran it (the usual case).
        if (relaunch && (await this.leases?.ranSince(id, scheduledAt, this.slots.get(id)?.intervalMs ?? 0))) return;
        return await this.check(id, takeover);
      });
    })
      // The check's turn under the limit ends when its result is handed to the batch; what waits
      // for the batch's commit (the notification of a transition) waits outside it.
      .then((recorded) => recorded && this.store.db.background(recorded))
      .catch((err: Error) => this.log.error({ err, monitor: id }, "check failed"))
      .finally(() => {
        this.running.delete(id);
        this.inFlight.delete(task);
        this.relaunched.delete(id);
        const again = this.again.get(id);
        this.again.delete(id);
        if (again !== undefined) this.launch(id, again);
      });
    this.inFlight.add(task);
  }

  private async check(id: string, takeover = false): Promise<(() => Promise<void>) | undefined> {
    // Another replica's lease ran out: nothing to do when it recorded the check (the usual case),
    // one read instead of a claim that would fail.
    if (takeover && this.leases && (await this.leases.takeoverAt(id)) === undefined) return;
    // With the lease's length known from the last check, the lease first: a replica that loses it reads nothing.
    const claimedAt = Date.now();
    const known = this.leaseLengths.get(id);
    const slot = this.slots.get(id);
    let read: CheckRead | undefined;
    if (this.leases && known !== undefined && slot) {
      const taken = await this.leases.takeAndRead(id, slot.intervalMs, known, claimedAt);
      if (!taken) {
        await this.lost(id, known);
        return undefined;
      }
      read = taken.read;
    } else read = await this.store.monitors.findForCheck(id);
    const monitor = read?.monitor;
    if (!read || !monitor || monitor.status !== "active" || (this.place && !this.place.checks(monitor))) return;
    if (this.leases) {
      const intervalMs = cadenceMs(monitor);
      const leaseMs = this.leases.leaseMs(monitor, intervalMs);
      this.leaseLengths.set(id, leaseMs);
      if (known === undefined || !slot) {
        if (!(await this.leases.take(id, intervalMs, leaseMs, Date.now()))) {
          await this.lost(id, leaseMs);
          return undefined;
        }
      } else if (leaseMs > known) await this.leases.extend(id, claimedAt, leaseMs);
    }
    const started = performance.now();
    const first = await this.runner.run(monitor);
    const outcome = first && this.place?.retryElsewhere ? await this.place.retryElsewhere(monitor, first) : first;
    if (outcome === undefined || !this.store.isOpen) return;
    // The probe's time (its retries included), not the wait for the batch that records it.
    const probeMs = performance.now() - started;
    const now = Date.now();
    // The lease is finished in the transaction that records the check.
    const recording = this.batch.record(
      { monitorId: id, outcome, at: now, policy: await this.policyFor(monitor, now, read.windows) },
      this.leases && id,
    );
    return async () => {
      const recorded = await recording;
      this.checks++;
      if (recorded) this.observer?.checked(monitor.type, outcome.up, probeMs);
      if (recorded?.transition)
        await this.notifier.notify(
          monitor,
          `monitor.${recorded.transition}`,
          recorded.heartbeat,
          recorded.failedLocations,
        );
    };
  }

  /**
   * Another replica holds the lease on the check of `id` (for up to `leaseMs`), or finished it
   * within the interval. If that replica dies before recording it, this one runs the check when
   * the lease runs out; unless its own next check of the monitor is due before then, which takes
   * the lease over anyway. If it finished it, this one's next check is due when the lease grants it.
   */
  private async lost(id: string, leaseMs: number): Promise<void> {
    const lease = await this.leases?.current(id);
    const slot = this.slots.get(id);
    if (!lease || !this.leases || this.stopped) return;
    if (lease.done) {
      // Another replica ran this period's check (its timer ahead of this one's): this replica's next
      // try is when the lease grants one, not an interval after its own due time, which the lease
      // would refuse again when the other replica's checks run late, and then a period would go unchecked.
      if (slot?.timer !== undefined) {
        clearTimeout(slot.timer);
        this.schedule(id, slot.intervalMs, this.leases.nextGrant(lease.claimedAt, slot.intervalMs));
      }
      return;
    }
    if (slot?.timer !== undefined && slot.at <= Date.now() + leaseMs) return;
    const at = lease.expiresAt + 50;
    setTimeout(() => this.launch(id, at, true), Math.max(0, at - Date.now())).unref();
  }

  private recordLag(ms: number): void {
    this.observer?.lag(ms);
    if (this.lags.length >= LAG_SAMPLES) this.lags.splice(0, this.lags.length - LAG_SAMPLES + 1);
    this.lags.push(ms);
  }
}
