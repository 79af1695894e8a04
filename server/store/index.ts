import type { DatabaseSync } from "node:sqlite";
import { ChannelRepository } from "./channels";
import { openDatabase } from "./database";
import { HeartbeatRepository } from "./heartbeats";
import { IdempotencyRepository } from "./idempotency";
import { KeyRepository } from "./keys";
import { MaintenanceWindowRepository } from "./maintenance-windows";
import { MonitorRepository } from "./monitors";
import { OutboxRepository } from "./outbox";
import { PushTokenRepository } from "./push-tokens";
import { StatusPageRepository } from "./status-pages";

/** Every repository over one embedded database: the only code that speaks SQL. */
export class Store {
  readonly monitors: MonitorRepository;
  readonly channels: ChannelRepository;
  readonly statusPages: StatusPageRepository;
  readonly keys: KeyRepository;
  readonly heartbeats: HeartbeatRepository;
  readonly idempotency: IdempotencyRepository;
  readonly outbox: OutboxRepository;
  readonly maintenanceWindows: MaintenanceWindowRepository;
  readonly pushTokens: PushTokenRepository;

  constructor(readonly db: DatabaseSync) {
    this.monitors = new MonitorRepository(db);
    this.channels = new ChannelRepository(db);
    this.statusPages = new StatusPageRepository(db);
    this.keys = new KeyRepository(db);
    this.heartbeats = new HeartbeatRepository(db);
    this.idempotency = new IdempotencyRepository(db);
    this.outbox = new OutboxRepository(db);
    this.maintenanceWindows = new MaintenanceWindowRepository(db);
    this.pushTokens = new PushTokenRepository(db);
  }

  /** Opens (and migrates) the database at `path`, a file or `:memory:`. */
  static open(path: string): Store {
    return new Store(openDatabase(path));
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
