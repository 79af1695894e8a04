import type { Executor } from "./sql/executor";
import type { Monitor, StatusPage, StatusPageLocale, StoredIncidentRule, StoredSection } from "../../api";
import { MonitorSetObjects } from "./account-objects";

interface StatusPageRow {
  id: string;
  account_id: string;
  slug: string;
  title: string;
  description: string | null;
  external_id: string | null;
  structure: string | null;
  custom_domain: string | null;
  password_hash: string | null;
  created_at: string;
  updated_at: string;
}

/** The structure a page keeps as one JSON column. */
export interface StatusPageStructure {
  sections: StoredSection[];
  incident_rules: StoredIncidentRule[];
  allowed_cidrs: string[];
  locale: StatusPageLocale;
  logo_url: string | null;
  brand_color: string | null;
}

/** A page's structure before any was written (pages older than sections). */
export const EMPTY_STRUCTURE: StatusPageStructure = {
  sections: [],
  incident_rules: [],
  allowed_cidrs: [],
  locale: "en",
  logo_url: null,
  brand_color: null,
};

/** What a status page stores besides its id and times. */
export interface StatusPageSpec extends StatusPageStructure {
  slug: string;
  title: string;
  description: string | null;
  monitor_ids: string[];
  custom_domain: string | null;
  /** The password's scrypt record; undefined on update: kept as it is. */
  password_hash?: string | null;
}

/** A page with what only the server sees: its account and password record. */
export type PrivateStatusPage = StatusPage & { account_id: string; password_hash: string | null };

/** The monitors of a public status page, with what the public document may show. */
export interface PublicMonitorRow {
  id: string;
  spec: string;
  status: Monitor["status"];
  health: Monitor["health"];
  last_checked_at: string | null;
}

/** Status pages and their monitor links. Slugs are unique across the server. */
export class StatusPageRepository extends MonitorSetObjects<StatusPageRow, StatusPage, StatusPageSpec> {
  constructor(db: Executor) {
    super(db, "status_pages", "sp", { table: "status_page_monitors", column: "status_page_id" });
  }

  async bySlug(slug: string): Promise<PrivateStatusPage | undefined> {
    return await this.privateBy("slug", slug);
  }

  /** The page served at a custom domain. */
  async byDomain(host: string): Promise<PrivateStatusPage | undefined> {
    return await this.privateBy("custom_domain", host);
  }

  /** The page (of any account) whose unique `column` holds `value`, with its owner and password hash. */
  private async privateBy(column: "slug" | "custom_domain", value: string): Promise<PrivateStatusPage | undefined> {
    const row = (await this.db.prepare(`SELECT * FROM status_pages WHERE ${column} = ?`).get(value)) as
      StatusPageRow | undefined;
    return row
      ? { ...(await this.item(row)), account_id: row.account_id, password_hash: row.password_hash }
      : undefined;
  }

  /** Every page with incident rules (the rule sweep reads them). */
  async withRules(): Promise<PrivateStatusPage[]> {
    const rows = (await this.db
      .prepare("SELECT * FROM status_pages WHERE structure IS NOT NULL ORDER BY created_at, id")
      .all()) as unknown as StatusPageRow[];
    const pages = await Promise.all(
      rows.map(async (row) => ({
        ...(await this.item(row)),
        account_id: row.account_id,
        password_hash: row.password_hash,
      })),
    );
    return pages.filter((p) => p.incident_rules.length > 0);
  }

  /** Every page with a confirmed subscriber (the maintenance sweep tells them). */
  async withSubscribers(): Promise<PrivateStatusPage[]> {
    const rows = (await this.db
      .prepare(
        "SELECT * FROM status_pages WHERE id IN (SELECT status_page_id FROM status_subscribers WHERE confirmed_at IS NOT NULL AND unsubscribed_at IS NULL) ORDER BY created_at, id",
      )
      .all()) as unknown as StatusPageRow[];
    return await Promise.all(
      rows.map(async (row) => ({
        ...(await this.item(row)),
        account_id: row.account_id,
        password_hash: row.password_hash,
      })),
    );
  }

  /** Whether another page (not `exceptId`) is served at the domain. */
  async domainTaken(domain: string, exceptId?: string): Promise<boolean> {
    return (
      (await this.db
        .prepare("SELECT 1 FROM status_pages WHERE custom_domain = ? AND id IS DISTINCT FROM ?")
        .get(domain, exceptId ?? null)) !== undefined
    );
  }

  /** Whether another page (not `exceptId`) already has the slug. */
  async slugTaken(slug: string, exceptId?: string): Promise<boolean> {
    return (
      (await this.db
        .prepare("SELECT 1 FROM status_pages WHERE slug = ? AND id IS DISTINCT FROM ?")
        .get(slug, exceptId ?? null)) !== undefined
    );
  }

  /** The columns a page's spec sets, besides its mark and its password. */
  protected columns(spec: StatusPageSpec) {
    return {
      slug: spec.slug,
      title: spec.title,
      description: spec.description,
      structure: structureJson(spec),
      custom_domain: spec.custom_domain,
    };
  }

  /** The password's record: a spec without one (undefined) keeps it on update. */
  protected override kept(spec: StatusPageSpec) {
    return { password_hash: spec.password_hash };
  }

  /** The page's monitors in creation order, for the public document. */
  async publicMonitors(statusPageId: string): Promise<PublicMonitorRow[]> {
    return (await this.db
      .prepare(
        `SELECT m.id, m.spec, m.status, CASE WHEN m.health = 'up' AND m.degraded = 1 THEN 'degraded' ELSE m.health END AS health, m.last_checked_at FROM monitors m
         JOIN status_page_monitors spm ON spm.monitor_id = m.id
         WHERE spm.status_page_id = ? ORDER BY m.created_at, m.id`,
      )
      .all(statusPageId)) as unknown as PublicMonitorRow[];
  }

  protected async item(row: StatusPageRow): Promise<StatusPage> {
    const monitorIds = await this.monitors.of(row.id);
    const structure = {
      ...EMPTY_STRUCTURE,
      ...(row.structure ? (JSON.parse(row.structure) as Partial<StatusPageStructure>) : {}),
    };
    return {
      id: row.id,
      slug: row.slug,
      title: row.title,
      description: row.description,
      monitor_ids: monitorIds,
      external_id: row.external_id,
      sections: structure.sections,
      incident_rules: structure.incident_rules,
      custom_domain: row.custom_domain,
      password_set: row.password_hash !== null,
      allowed_cidrs: structure.allowed_cidrs,
      locale: structure.locale,
      logo_url: structure.logo_url,
      brand_color: structure.brand_color,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  }
}

function structureJson(spec: StatusPageStructure): string {
  const { sections, incident_rules, allowed_cidrs, locale, logo_url, brand_color } = spec;
  return JSON.stringify({ sections, incident_rules, allowed_cidrs, locale, logo_url, brand_color });
}

/** What a component's rule reads of one monitor. */
export interface ComponentMonitorRow extends PublicMonitorRow {
  tags: string[];
  /** The last check's response time (null: none timed). */
  last_response_ms: number | null;
  /** When the monitor's open down period started (epoch ms), null when it is not down. */
  down_since: number | null;
}

/** The facts component rules read of the given monitors. */
export async function componentMonitors(
  db: Executor,
  monitorIds: readonly string[],
): Promise<Map<string, ComponentMonitorRow>> {
  if (monitorIds.length === 0) return new Map();
  const marks = monitorIds.map(() => "?").join(", ");
  const rows = (await db
    .prepare(
      `SELECT m.id, m.spec, m.status, CASE WHEN m.health = 'up' AND m.degraded = 1 THEN 'degraded' ELSE m.health END AS health, m.last_checked_at,
         (SELECT h.response_time_ms FROM heartbeats h WHERE h.monitor_id = m.id ORDER BY h.checked_at DESC LIMIT 1) AS last_response_ms,
         (SELECT MIN(i.started_at) FROM incidents i WHERE i.monitor_id = m.id AND i.ended_at IS NULL) AS down_since
       FROM monitors m WHERE m.id IN (${marks})`,
    )
    .all(...monitorIds)) as unknown as (PublicMonitorRow & {
    last_response_ms: number | null;
    down_since: number | null;
  })[];
  return new Map(
    rows.map((r) => [
      r.id,
      {
        ...r,
        tags: (JSON.parse(r.spec) as { tags?: string[] }).tags ?? [],
        last_response_ms: r.last_response_ms === null ? null : Number(r.last_response_ms),
        down_since: r.down_since === null ? null : Number(r.down_since),
      },
    ]),
  );
}

/** Mean response time of the monitors per bucket of `bucketMs` since `since` (bucket start → ms). */
export async function responseSeries(
  db: Executor,
  monitorIds: readonly string[],
  since: number,
  bucketMs: number,
): Promise<Map<number, number>> {
  if (monitorIds.length === 0) return new Map();
  const marks = monitorIds.map(() => "?").join(", ");
  const rows = (await db
    .prepare(
      `SELECT checked_at / CAST(? AS BIGINT) AS bucket, AVG(response_time_ms) AS ms FROM heartbeats
       WHERE monitor_id IN (${marks}) AND checked_at >= ? AND response_time_ms IS NOT NULL GROUP BY 1`,
    )
    .all(bucketMs, ...monitorIds, since)) as { bucket: number | string; ms: number | string }[];
  return new Map(rows.map((r) => [Number(r.bucket) * bucketMs, Math.round(Number(r.ms))]));
}
