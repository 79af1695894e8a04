import type { DatabaseSync } from "node:sqlite";
import { ChannelRepository } from "./channels";
import { openDatabase, transaction } from "./database";
import { HealthRepository } from "./health";
import { type CheckOutcome, HEARTBEAT_RETENTION_MS, HeartbeatRepository, type Recorded } from "./heartbeats";
import { IdempotencyRepository } from "./idempotency";
import { KeyRepository } from "./keys";
import { MonitorRepository } from "./monitors";
import { OutboxRepository } from "./outbox";
import { withStatementCache } from "./statements";
import { StatusPageRepository } from "./status-pages";

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
  }

  /** Opens (and migrates) the database at `path`, a file or `:memory:`. */
  static open(path: string): Store {
    return new Store(openDatabase(path));
  }

  /**
   * Records a check in one transaction: the heartbeat (with its roll-up), then the monitor's
   * health and incidents. A monitor paused or deleted while its check ran records nothing:
   * pause stops heartbeats at once.
   */
  recordCheck(monitorId: string, outcome: CheckOutcome, at = Date.now()): Recorded | undefined {
    return transaction(this.db, () => {
      const previous = this.health.current(monitorId);
      if (previous === undefined) return undefined;
      const heartbeat = this.heartbeats.insert(monitorId, outcome, at);
      return { heartbeat, transition: this.health.apply(monitorId, previous, heartbeat, at) };
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
