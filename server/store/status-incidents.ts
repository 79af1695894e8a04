import type { Incident, IncidentImpact, IncidentState, IncidentUpdate } from "../../api";
import type { Executor } from "./sql/executor";
import { newId, nowIso } from "./ids";

interface IncidentRow {
  id: string;
  status_page_id: string;
  title: string;
  state: IncidentState;
  components: string;
  postmortem: string | null;
  rule: number | null;
  created_at: string;
  updated_at: string;
  resolved_at: string | null;
}

interface UpdateRow {
  id: string;
  incident_id: string;
  state: IncidentState;
  message: string;
  components: string;
  created_at: string;
}

/** What opens an incident: its title, first state and message, the impact, and the rule (if one opened it). */
export interface NewIncident {
  title: string;
  state: IncidentState;
  message: string;
  components: Record<string, IncidentImpact>;
  rule: number | null;
}

/** Incidents of status pages and their updates. A rule keeps at most one open incident per page. */
export class StatusIncidentRepository {
  constructor(private readonly db: Executor) {}

  /** The page's incidents, newest first: `open`, `resolved` or all. */
  async list(pageId: string, which: "open" | "resolved" | "all" = "all", limit = 200): Promise<Incident[]> {
    const filter =
      which === "open" ? " AND resolved_at IS NULL" : which === "resolved" ? " AND resolved_at IS NOT NULL" : "";
    const rows = (await this.db
      .prepare(
        `SELECT * FROM status_incidents WHERE status_page_id = ?${filter} ORDER BY created_at DESC, id DESC LIMIT ?`,
      )
      .all(pageId, limit)) as unknown as IncidentRow[];
    return await Promise.all(rows.map(async (r) => await this.hydrate(r)));
  }

  async get(pageId: string, id: string): Promise<Incident | undefined> {
    const row = (await this.db
      .prepare("SELECT * FROM status_incidents WHERE id = ? AND status_page_id = ?")
      .get(id, pageId)) as IncidentRow | undefined;
    return row ? await this.hydrate(row) : undefined;
  }

  /** The open incident a rule opened on the page, if any. */
  async openOfRule(pageId: string, rule: number): Promise<Incident | undefined> {
    const row = (await this.db
      .prepare("SELECT * FROM status_incidents WHERE open_rule = ?")
      .get(`${pageId}/${rule}`)) as IncidentRow | undefined;
    return row ? await this.hydrate(row) : undefined;
  }

  /** Opens an incident with its first update; undefined when the rule's incident is open already. */
  async open(pageId: string, spec: NewIncident): Promise<Incident | undefined> {
    const id = newId("spi");
    const now = nowIso();
    const components = JSON.stringify(spec.components);
    const opened = await this.db.transaction(async () => {
      if (spec.rule !== null && (await this.openOfRule(pageId, spec.rule))) return false;
      // Replicas sweep the same rules: the one whose insert finds the rule's incident open already
      // (the unique open_rule) opens nothing, and tells nobody.
      const inserted = await this.db
        .prepare(
          "INSERT INTO status_incidents (id, status_page_id, title, state, components, postmortem, rule, open_rule, created_at, updated_at, resolved_at) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?, ?, NULL) ON CONFLICT DO NOTHING",
        )
        .run(
          id,
          pageId,
          spec.title,
          spec.state,
          components,
          spec.rule,
          spec.rule === null ? null : `${pageId}/${spec.rule}`,
          now,
          now,
        );
      if (inserted.changes === 0) return false;
      await this.insertUpdate(id, spec.state, spec.message, components, now);
      return true;
    });
    return opened ? await this.get(pageId, id) : undefined;
  }

  /** Adds an update; `resolved` resolves the incident (and frees its rule). Undefined: no such open incident. */
  async update(
    pageId: string,
    id: string,
    state: IncidentState,
    message: string,
    components: Record<string, IncidentImpact>,
  ): Promise<Incident | undefined> {
    const now = nowIso();
    const json = JSON.stringify(components);
    const done = await this.db.transaction(async () => {
      const resolved = state === "resolved";
      const result = await this.db
        .prepare(
          `UPDATE status_incidents SET state = ?, components = ?, updated_at = ?,
           resolved_at = CASE WHEN ? = 1 THEN ? ELSE NULL END, open_rule = CASE WHEN ? = 1 THEN NULL ELSE open_rule END
           WHERE id = ? AND status_page_id = ? AND resolved_at IS NULL`,
        )
        .run(state, json, now, resolved ? 1 : 0, now, resolved ? 1 : 0, id, pageId);
      if (result.changes === 0) return false;
      await this.insertUpdate(id, state, message, json, now);
      return true;
    });
    return done ? await this.get(pageId, id) : undefined;
  }

  /** Changes the title or the post-mortem. */
  async patch(pageId: string, id: string, title: string, postmortem: string | null): Promise<Incident | undefined> {
    await this.db
      .prepare(
        "UPDATE status_incidents SET title = ?, postmortem = ?, updated_at = ? WHERE id = ? AND status_page_id = ?",
      )
      .run(title, postmortem, nowIso(), id, pageId);
    return await this.get(pageId, id);
  }

  private async insertUpdate(
    incidentId: string,
    state: IncidentState,
    message: string,
    components: string,
    at: string,
  ): Promise<void> {
    await this.db
      .prepare(
        "INSERT INTO status_incident_updates (id, incident_id, state, message, components, created_at) VALUES (?, ?, ?, ?, ?, ?)",
      )
      .run(newId("spu"), incidentId, state, message, components, at);
  }

  private async hydrate(row: IncidentRow): Promise<Incident> {
    const updates = (await this.db
      .prepare("SELECT * FROM status_incident_updates WHERE incident_id = ? ORDER BY created_at DESC, id DESC")
      .all(row.id)) as unknown as UpdateRow[];
    return {
      id: row.id,
      status_page_id: row.status_page_id,
      title: row.title,
      state: row.state,
      components: JSON.parse(row.components) as Record<string, IncidentImpact>,
      postmortem: row.postmortem,
      rule: row.rule === null ? null : Number(row.rule),
      created_at: row.created_at,
      updated_at: row.updated_at,
      resolved_at: row.resolved_at,
      updates: updates.map((u): IncidentUpdate => ({
        id: u.id,
        state: u.state,
        message: u.message,
        components: JSON.parse(u.components) as Record<string, IncidentImpact>,
        created_at: u.created_at,
      })),
    };
  }
}
