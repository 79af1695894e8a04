import type { Heartbeat } from "../../api";
import { SecretBox } from "../secrets";
import { AgentRepository } from "./agents";
import { AlertOutboxRepository } from "./alert-outbox";
import { ChannelRepository } from "./channels";
import { CheckLeaseRepository } from "./check-leases";
import { ExternalCommits, schemaVersion } from "./sql/database";
import type { Executor } from "./sql/executor";
import { ExternalIdRepository } from "./external-ids";
import { HealthRepository, type HealthSnapshot } from "./health";
import { type CheckOutcome, DAY_MS, HEARTBEAT_RETENTION_MS, HeartbeatRepository, type Recorded } from "./heartbeats";
import { IdempotencyRepository } from "./idempotency";
import { KeyRepository } from "./keys";
import { MaintenanceWindowRepository } from "./maintenance-windows";
import { MIGRATIONS } from "./sql/migrations";
import { RateCounterRepository } from "./rate-counters";
import { MonitorRepository } from "./monitors";
import { openPostgres } from "./sql/postgres";
import { openSqlite } from "./sql/sqlite";
import { OutboxRepository } from "./outbox";
import { PageChanges } from "./page-changes";
import { PushTokenRepository } from "./push-tokens";
import { StatusPageRepository } from "./status-pages";
import { ComponentStateRepository } from "./status-component-states";
import { StatusIncidentRepository } from "./status-incidents";
import { StatusSubscriberRepository } from "./status-subscribers";
import { advanceHealth, type HealthChange, type HealthPolicy, IMMEDIATE, saveStreaks } from "./streaks";
import { WriteWatch } from "./write-watch";

/**
 * Every repository over one database, a SQLite file or PostgreSQL: the only code that speaks SQL.
 * The repositories are the files of this folder; the engines they run on (the executor, the
 * dialect, SQLite, PostgreSQL and its translation, the migrations) are in `sql/`.
 */
export class Store {
  readonly monitors: MonitorRepository;
  readonly channels: ChannelRepository;
  readonly statusPages: StatusPageRepository;
  /** Manual components' states, as people set them. */
  readonly componentStates: ComponentStateRepository;
  /** Incidents of status pages, as people (and incident rules) write them. */
  readonly statusIncidents: StatusIncidentRepository;
  /** Subscribers of status pages and the notices each was sent. */
  readonly statusSubscribers: StatusSubscriberRepository;
  readonly keys: KeyRepository;
  readonly health: HealthRepository;
  readonly heartbeats: HeartbeatRepository;
  readonly idempotency: IdempotencyRepository;
  readonly outbox: OutboxRepository;
  /** Notifications of monitors' events: queued, sent, failed (see alert-outbox.ts). */
  readonly alerts: AlertOutboxRepository;
  readonly externalIds: ExternalIdRepository;
  readonly maintenanceWindows: MaintenanceWindowRepository;
  readonly pushTokens: PushTokenRepository;
  /** Checker agents and their last contact. */
  readonly agents: AgentRepository;
  /** Which replica runs each due check (several replicas on one database). */
  readonly checkLeases: CheckLeaseRepository;
  /** Rate-limit and failed-authentication counts shared by the replicas on one database. */
  readonly rateCounters: RateCounterRepository;

  /** The database, whichever engine holds it. */
  readonly db: Executor;
  /** The built-in checker's location: checks recorded without one are its (the server sets it at start). */
  location = "local";
  /** Commits by other processes: the caches of `keys` and `monitors` are emptied by them. */
  readonly commits: ExternalCommits;
  /** Committed writes to what status pages show, this process's and others': their caches follow it. */
  readonly pageChanges: PageChanges;

  constructor(
    engine: Executor,
    readonly secrets: SecretBox = SecretBox.ephemeral(),
  ) {
    this.commits = new ExternalCommits(engine);
    this.pageChanges = new PageChanges(this.commits);
    // Every repository writes through the watch, so that no write of this process escapes the caches.
    const db = new WriteWatch(engine, (table, monitorId) => this.pageChanges.wrote(table, monitorId));
    this.db = db;
    this.monitors = new MonitorRepository(db, secrets, this.commits);
    this.channels = new ChannelRepository(db, secrets, () => this.monitors.forget());
    this.statusPages = new StatusPageRepository(db);
    this.componentStates = new ComponentStateRepository(db);
    this.statusIncidents = new StatusIncidentRepository(db);
    this.statusSubscribers = new StatusSubscriberRepository(db);
    this.keys = new KeyRepository(db, this.commits);
    this.health = new HealthRepository(db, (id, row) => this.monitors.checked(id, row));
    this.heartbeats = new HeartbeatRepository(db, this.health);
    this.idempotency = new IdempotencyRepository(db, secrets);
    this.outbox = new OutboxRepository(db);
    this.alerts = new AlertOutboxRepository(db);
    this.externalIds = new ExternalIdRepository(db);
    this.maintenanceWindows = new MaintenanceWindowRepository(db);
    this.pushTokens = new PushTokenRepository(db);
    this.agents = new AgentRepository(db);
    this.checkLeases = new CheckLeaseRepository(db);
    this.rateCounters = new RateCounterRepository(db);
  }

  /**
   * Opens (and migrates) the database at `path`: a SQLite file, `:memory:`, or a PostgreSQL URL
   * (`postgres://…`), with the secret key file (default for a file: `<path>.key`, created 0600
   * when absent; an in-memory database gets a key in memory; PostgreSQL needs it named, the same
   * file on every replica). Secrets not sealed under the current key are resealed at once.
   */
  static async open(path: string, options: { secretKeyFile?: string } = {}): Promise<Store> {
    const postgres = isPostgresUrl(path);
    if (postgres && !options.secretKeyFile) {
      throw new Error(
        "--secret-key-file (UPTIME_SECRET_KEY_FILE) is required with a PostgreSQL database: every replica must open secrets with the same key file",
      );
    }
    const file = options.secretKeyFile ?? (path === ":memory:" ? undefined : `${path}.key`);
    const db = postgres ? await openPostgres(path) : openSqlite(path);
    const store = new Store(db, file ? SecretBox.ensure(file) : SecretBox.ephemeral());
    await store.reseal();
    return store;
  }

  /** Whether the database is open. */
  get isOpen(): boolean {
    return this.db.isOpen;
  }

  /** Reseals every stored secret not sealed under the current key; returns how many rows changed. */
  async reseal(): Promise<number> {
    const changed = await this.db.transaction(
      async () => (await this.channels.reseal()) + (await this.monitors.reseal()) + (await this.idempotency.reseal()),
    );
    // Older copies of the rows must not linger on disk.
    if (changed > 0) await this.db.compact();
    return changed;
  }

  /**
   * Records a check in one transaction: the heartbeat (with its roll-up), then the monitor's
   * health and incidents. A monitor paused or deleted while its check ran records nothing:
   * pause stops heartbeats at once. `policy`: confirmations, and whether a maintenance window
   * covers the monitor now.
   */
  async recordCheck(
    monitorId: string,
    outcome: CheckOutcome,
    at = Date.now(),
    policy: HealthPolicy = IMMEDIATE,
    checkKey?: string,
  ): Promise<Recorded | undefined> {
    return (await this.recordChecks([{ monitorId, outcome, at, policy, checkKey }]))[0];
  }

  /**
   * Records checks in one transaction, as `recordCheck` records each, with a statement per table
   * for all of them rather than one per check: the built-in checker records the checks that end
   * together this way. Answers in the order of `checks`.
   */
  async recordChecks(checks: readonly CheckRecord[]): Promise<(Recorded | undefined)[]> {
    return await this.db.transaction(async () => {
      const recorded: (Recorded | undefined)[] = Array.from({ length: checks.length });
      // A monitor's second check in one batch reads what its first wrote: a round for each.
      for (const round of rounds(checks)) await this.recordRound(checks, round, recorded);
      return recorded;
    });
  }

  /** Records `checks[i]` for each index of `round` (one check per monitor) into `recorded`. */
  private async recordRound(
    checks: readonly CheckRecord[],
    round: readonly number[],
    recorded: (Recorded | undefined)[],
  ): Promise<void> {
    // One read for the whole round: the monitors' health, the days' roll-ups, the locations' streaks.
    const snapshots = await this.health.snapshots(
      round.map((i) => {
        const c = checks[i] as CheckRecord;
        return { monitorId: c.monitorId, day: Math.floor(c.at / DAY_MS) };
      }),
    );
    const live: { index: number; check: CheckRecord; previous: HealthSnapshot; policy: HealthPolicy }[] = [];
    for (const index of round) {
      const check = checks[index] as CheckRecord;
      const previous = snapshots.get(check.monitorId);
      if (previous === undefined) continue;
      if (check.checkKey !== undefined && (await this.heartbeats.hasCheck(check.checkKey))) {
        recorded[index] = { duplicate: true };
        continue;
      }
      const policy = check.policy ?? IMMEDIATE;
      live.push({ index, check, previous, policy: { ...policy, location: policy.location ?? this.location } });
    }
    const heartbeats = await this.heartbeats.insert(
      live.map(({ check, previous, policy }) => ({
        monitorId: check.monitorId,
        outcome: check.outcome,
        at: check.at,
        maintenance: !check.outcome.up && policy.maintenance,
        location: policy.location as string,
        checkKey: check.checkKey,
        histogram: previous.histogram,
      })),
    );
    const changes = live.map(({ check, previous, policy }) =>
      advanceHealth(check.monitorId, previous.health, check.outcome.up, policy, check.at, previous.streaks),
    );
    await saveStreaks(
      this.db,
      changes.flatMap((c) => (c.streak ? [c.streak] : [])),
    );
    const transitions = await this.health.apply(
      live.map(({ check, previous }, i) => ({
        monitorId: check.monitorId,
        previous,
        health: (changes[i] as HealthChange).health,
        heartbeat: heartbeats[i] as Heartbeat,
        at: check.at,
        failedLocations: (changes[i] as HealthChange).failedLocations,
      })),
    );
    live.forEach(({ index }, i) => {
      recorded[index] = {
        heartbeat: heartbeats[i] as Heartbeat,
        transition: transitions[i],
        failedLocations: (changes[i] as HealthChange).failedLocations,
      };
    });
  }

  /** Deletes check results and closed incidents past the retention; returns heartbeats deleted. */
  async pruneChecks(now = Date.now()): Promise<number> {
    const cutoff = now - HEARTBEAT_RETENTION_MS;
    await this.health.prune(cutoff);
    await this.alerts.prune(cutoff);
    await this.agents.prune(cutoff);
    return await this.heartbeats.prune(cutoff);
  }

  /**
   * Why the store cannot take writes now (empty when it can): closed, migrations not all applied,
   * or the write lock not obtainable (a read-only file or disk, another process holding it).
   * Takes and releases the write lock without writing anything.
   */
  async readiness(): Promise<string[]> {
    if (!this.db.isOpen) return ["database closed"];
    const problems: string[] = [];
    const version = await schemaVersion(this.db);
    if (version < MIGRATIONS.length) problems.push(`schema at version ${version} of ${MIGRATIONS.length}`);
    try {
      await this.db.probeWrite();
    } catch (err) {
      problems.push(`database not writable: ${(err as Error).message}`);
    }
    return problems;
  }

  /** The database's size in bytes. */
  async sizeBytes(): Promise<number> {
    return await this.db.sizeBytes();
  }

  /** Closes the database. */
  async close(): Promise<void> {
    return await this.db.close();
  }
}

/** Whether `db` names a PostgreSQL database (`postgres://` or `postgresql://`) rather than a SQLite file. */
export function isPostgresUrl(db: string): boolean {
  return /^postgres(ql)?:\/\//i.test(db);
}

/** One check to record (see `Store.recordChecks`). */
export interface CheckRecord {
  monitorId: string;
  outcome: CheckOutcome;
  /** When the check ran (epoch ms). */
  at: number;
  /** Confirmations, maintenance, locations (default: every result counts at once). */
  policy?: HealthPolicy;
  /** An agent's check: `<monitor>/<location>/<due>`, recorded once. */
  checkKey?: string;
}

/** The indexes of `checks` in rounds that hold each monitor once, in order: a monitor's n-th check is in round n. */
function rounds(checks: readonly CheckRecord[]): number[][] {
  const seen = new Map<string, number>();
  const result: number[][] = [];
  checks.forEach((c, i) => {
    const n = seen.get(c.monitorId) ?? 0;
    seen.set(c.monitorId, n + 1);
    (result[n] ??= []).push(i);
  });
  return result;
}
