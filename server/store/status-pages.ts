import type { Executor } from "./sql/executor";
import type { StatusPage } from "../../api";
import { ownedIds } from "./sql/database";
import { newId, nowIso } from "./ids";
import { afterCursor, type Page, toPage } from "./pagination";

interface StatusPageRow {
  id: string;
  account_id: string;
  slug: string;
  title: string;
  description: string | null;
  external_id: string | null;
  created_at: string;
  updated_at: string;
}

/** What a status page stores besides its id and times. */
export interface StatusPageSpec {
  slug: string;
  title: string;
  description: string | null;
  monitor_ids: string[];
}

/** The monitors of a public status page, with what the public document may show. */
export interface PublicMonitorRow {
  id: string;
  spec: string;
  status: "active" | "paused";
  health: "pending" | "up" | "degraded" | "down";
  last_checked_at: string | null;
}

/** Status pages and their monitor links. Slugs are unique across the server. */
export class StatusPageRepository {
  constructor(private readonly db: Executor) {}

  async list(accountId: string, limit: number, cursor?: string): Promise<Page<StatusPage>> {
    const after = afterCursor(cursor);
    const rows = await this.db
      .prepare(
        `SELECT * FROM status_pages WHERE account_id = ? AND ${after.sql} ORDER BY created_at, id LIMIT ?`,
      )
      .all(accountId, ...after.params, limit + 1) as unknown as StatusPageRow[];
    return await toPage(rows, limit, (kept) => Promise.all(kept.map(async (row) => await this.hydrate(row))));
  }

  async get(accountId: string, id: string): Promise<StatusPage | undefined> {
    const row = await this.db
      .prepare("SELECT * FROM status_pages WHERE id = ? AND account_id = ?")
      .get(id, accountId) as StatusPageRow | undefined;
    return row ? await this.hydrate(row) : undefined;
  }

  async bySlug(slug: string): Promise<(StatusPage & { account_id: string }) | undefined> {
    const row = await this.db.prepare("SELECT * FROM status_pages WHERE slug = ?").get(slug) as
      | StatusPageRow
      | undefined;
    return row ? { ...await this.hydrate(row), account_id: row.account_id } : undefined;
  }

  /** Whether another page (not `exceptId`) already has the slug. */
  async slugTaken(slug: string, exceptId?: string): Promise<boolean> {
    return (
      await this.db
        .prepare("SELECT 1 FROM status_pages WHERE slug = ? AND id IS DISTINCT FROM ?")
        .get(slug, exceptId ?? null) !== undefined
    );
  }

  /** The ids among `ids` that are monitors of the account. */
  async existingMonitors(accountId: string, ids: readonly string[]): Promise<Set<string>> {
    return await ownedIds(this.db, "monitors", accountId, ids);
  }

  async create(accountId: string, spec: StatusPageSpec, externalId: string | null = null): Promise<StatusPage> {
    const id = newId("sp");
    const now = nowIso();
    await this.db.transaction(async () => {
      await this.db
        .prepare(
          "INSERT INTO status_pages (id, account_id, slug, title, description, external_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .run(id, accountId, spec.slug, spec.title, spec.description, externalId, now, now);
      await this.link(id, spec.monitor_ids);
    });
    return await this.get(accountId, id) as StatusPage;
  }

  /** Stores a new spec; `externalId` undefined keeps the current mark. */
  async update(accountId: string, id: string, spec: StatusPageSpec, externalId?: string | null): Promise<StatusPage | undefined> {
    await this.db.transaction(async () => {
      await this.db
        .prepare(
          "UPDATE status_pages SET slug = ?, title = ?, description = ?, external_id = CASE WHEN ? = 1 THEN ? ELSE external_id END, updated_at = ? WHERE id = ? AND account_id = ?",
        )
        .run(spec.slug, spec.title, spec.description, externalId !== undefined ? 1 : 0, externalId ?? null, nowIso(), id, accountId);
      await this.db.prepare("DELETE FROM status_page_monitors WHERE status_page_id = ?").run(id);
      await this.link(id, spec.monitor_ids);
    });
    return await this.get(accountId, id);
  }

  async delete(accountId: string, id: string): Promise<StatusPage | undefined> {
    const page = await this.get(accountId, id);
    if (page) await this.db.prepare("DELETE FROM status_pages WHERE id = ? AND account_id = ?").run(id, accountId);
    return page;
  }

  /** The page's monitors in creation order, for the public document. */
  async publicMonitors(statusPageId: string): Promise<PublicMonitorRow[]> {
    return await this.db
      .prepare(
        `SELECT m.id, m.spec, m.status, CASE WHEN m.health = 'up' AND m.degraded = 1 THEN 'degraded' ELSE m.health END AS health, m.last_checked_at FROM monitors m
         JOIN status_page_monitors spm ON spm.monitor_id = m.id
         WHERE spm.status_page_id = ? ORDER BY m.created_at, m.id`,
      )
      .all(statusPageId) as unknown as PublicMonitorRow[];
  }

  private async link(statusPageId: string, monitorIds: readonly string[]): Promise<void> {
    const insert = this.db.prepare(
      "INSERT INTO status_page_monitors (status_page_id, monitor_id) VALUES (?, ?)",
    );
    for (const monitorId of monitorIds) await insert.run(statusPageId, monitorId);
  }

  private async hydrate(row: StatusPageRow): Promise<StatusPage> {
    const monitorIds = await this.db
      .prepare("SELECT monitor_id FROM status_page_monitors WHERE status_page_id = ? ORDER BY monitor_id")
      .all(row.id) as { monitor_id: string }[];
    return {
      id: row.id,
      slug: row.slug,
      title: row.title,
      description: row.description,
      monitor_ids: monitorIds.map((r) => r.monitor_id),
      external_id: row.external_id,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}
