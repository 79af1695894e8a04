import type { DatabaseSync } from "node:sqlite";
import { SecretBox } from "../secrets";
import { ChannelRepository } from "./channels";
import { openDatabase, transaction } from "./database";
import { HeartbeatRepository } from "./heartbeats";
import { IdempotencyRepository } from "./idempotency";
import { KeyRepository } from "./keys";
import { MonitorRepository } from "./monitors";
import { OutboxRepository } from "./outbox";
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

  constructor(
    readonly db: DatabaseSync,
    readonly secrets: SecretBox = SecretBox.ephemeral(),
  ) {
    this.monitors = new MonitorRepository(db, secrets);
    this.channels = new ChannelRepository(db, secrets);
    this.statusPages = new StatusPageRepository(db);
    this.keys = new KeyRepository(db);
    this.heartbeats = new HeartbeatRepository(db);
    this.idempotency = new IdempotencyRepository(db, secrets);
    this.outbox = new OutboxRepository(db);
  }

  /**
   * Opens (and migrates) the database at `path`, a file or `:memory:`, with the secret key file
   * (default: `<path>.key`, created 0600 when absent; an in-memory database gets a key in memory).
   * Secrets not sealed under the current key (older rows, a rotation) are resealed at once.
   */
  static open(path: string, options: { secretKeyFile?: string } = {}): Store {
    const file = options.secretKeyFile ?? (path === ":memory:" ? undefined : `${path}.key`);
    const store = new Store(openDatabase(path), file ? SecretBox.ensure(file) : SecretBox.ephemeral());
    store.reseal();
    return store;
  }

  /** Reseals every stored secret not sealed under the current key; returns how many rows changed. */
  reseal(): number {
    const changed = transaction(
      this.db,
      () => this.channels.reseal() + this.monitors.reseal() + this.idempotency.reseal(),
    );
    // Older copies of the rows must not linger in the write-ahead log.
    if (changed > 0) this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
    return changed;
  }

  close(): void {
    if (this.db.isOpen) this.db.close();
  }
}
