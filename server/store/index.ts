import type { DatabaseSync } from "node:sqlite";
import { ChannelRepository } from "./channels";
import { openDatabase, transaction } from "./database";
import { HealthRepository } from "./health";
import { type CheckOutcome, HEARTBEAT_RETENTION_MS, HeartbeatRepository, type Recorded } from "./heartbeats";
import { IdempotencyRepository } from "./idempotency";
import { KeyRepository } from "./keys";
import { MaintenanceWindowRepository } from "./maintenance-windows";
import { MonitorRepository } from "./monitors";
import { OutboxRepository } from "./outbox";
import { PushTokenRepository } from "./push-tokens";
import { withStatementCache } from "./statements";
import { StatusPageRepository } from "./status-pages";
import { advanceHealth, type HealthPolicy, IMMEDIATE } from "./streaks";

/** Every repository over one embedded database: the only code that speaks SQL. */
export class Store {
  readonly monitors: MonitorRepository;
  readonly channels: ChannelRepository;
  readonly statusPages: StatusPageRepository;
  readonly keys: KeyRepository;
  readonly health: HealthRepository;
  readonly heartbeats: HeartbeatRepository;
  readonly idempotency: IdempotencyRepository;
  readonly outbox: OutboxRepository;
  readonly maintenanceWindows: MaintenanceWindowRepository;
  readonly pushTokens: PushTokenRepository;

  readonly db: DatabaseSync;

  constructor(database: DatabaseSync) {
    const db = withStatementCache(database);
    this.db = db;
    this.monitors = new MonitorRepository(db);
    this.channels = new ChannelRepository(db);
    this.statusPages = new StatusPageRepository(db);
    this.keys = new KeyRepository(db);
    this.health = new HealthRepository(db);
    this.heartbeats = new HeartbeatRepository(db, this.health);
    this.idempotency = new IdempotencyRepository(db);
    this.outbox = new OutboxRepository(db);
    this.maintenanceWindows = new MaintenanceWindowRepository(db);
    this.pushTokens = new PushTokenRepository(db);
  }

  /** Opens (and migrates) the database at `path`, a file or `:memory:`. */
  static open(path: string): Store {
    return new Store(openDatabase(path));
  }

  /**
   * Records a check in one transaction: the heartbeat (with its roll-up), then the monitor's
   * health and incidents. A monitor paused or deleted while its check ran records nothing:
   * pause stops heartbeats at once. `policy`: confirmations, and whether a maintenance window
   * covers the monitor now.
   */
  recordCheck(monitorId: string, outcome: CheckOutcome, at = Date.now(), policy: HealthPolicy = IMMEDIATE): Recorded | undefined {
    return transaction(this.db, () => {
      const previous = this.health.current(monitorId);
      if (previous === undefined) return undefined;
      const heartbeat = this.heartbeats.insert(monitorId, outcome, at, !outcome.up && policy.maintenance);
      const health = advanceHealth(this.db, monitorId, previous as "pending" | "up" | "down", outcome.up, policy);
      return { heartbeat, transition: this.health.apply(monitorId, previous, health, heartbeat, at) };
    });
  }

  /** Deletes check results and closed incidents past the retention; returns heartbeats deleted. */
  pruneChecks(now = Date.now()): number {
    const cutoff = now - HEARTBEAT_RETENTION_MS;
    this.health.prune(cutoff);
    return this.heartbeats.prune(cutoff);
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
