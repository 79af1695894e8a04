import { SecretBox } from "../secrets";
import { AgentRepository } from "./agents";
import { AlertOutboxRepository } from "./alert-outbox";
import { ChannelRepository } from "./channels";
import { CheckLeaseRepository } from "./check-leases";
import { ExternalCommits, schemaVersion } from "./sql/database";
import type { Executor } from "./sql/executor";
import { ExternalIdRepository } from "./external-ids";
import { HealthRepository } from "./health";
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
import { advanceHealth, type HealthPolicy, IMMEDIATE } from "./streaks";
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
    this.health = new HealthRepository(db, (id) => this.monitors.forget(id));
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
    const located = { ...policy, location: policy.location ?? this.location };
    return await this.db.transaction(async () => {
      // One read for the whole record: the monitor's health, the day's roll-up, the locations' streaks.
      const previous = await this.health.snapshot(monitorId, Math.floor(at / DAY_MS));
      if (previous === undefined) return undefined;
      if (checkKey !== undefined && (await this.heartbeats.hasCheck(checkKey))) return { duplicate: true };
      const heartbeat = await this.heartbeats.insert(
        monitorId,
        outcome,
        at,
        !outcome.up && policy.maintenance,
        located.location,
        checkKey,
        previous.histogram,
      );
      const change = await advanceHealth(
        this.db,
        monitorId,
        previous.health,
        outcome.up,
        located,
        at,
        previous.streaks,
      );
      const transition = await this.health.apply(
        monitorId,
        previous,
        change.health,
        heartbeat,
        at,
        change.failedLocations,
      );
      return { heartbeat, transition, failedLocations: change.failedLocations };
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
