import type { Executor } from "./sql/executor";
import { nowIso } from "./ids";

/** A manual component's state as a person last set it. */
export interface ManualState {
  component_key: string;
  state: "operational" | "degraded" | "down" | "maintenance";
  set_at: string;
}

/** The states people set on manual components: operational data, apart from the page's declared structure. */
export class ComponentStateRepository {
  constructor(private readonly db: Executor) {}

  /** Every manual state set on the page, by component key. */
  async all(pageId: string): Promise<Map<string, ManualState>> {
    const rows = (await this.db
      .prepare("SELECT component_key, state, set_at FROM status_component_states WHERE status_page_id = ?")
      .all(pageId)) as unknown as ManualState[];
    return new Map(rows.map((r) => [r.component_key, r]));
  }

  async set(pageId: string, key: string, state: ManualState["state"]): Promise<void> {
    const now = nowIso();
    await this.db.transaction(async () => {
      await this.db
        .prepare("DELETE FROM status_component_states WHERE status_page_id = ? AND component_key = ?")
        .run(pageId, key);
      await this.db
        .prepare(
          "INSERT INTO status_component_states (status_page_id, component_key, state, set_at) VALUES (?, ?, ?, ?)",
        )
        .run(pageId, key, state, now);
    });
  }
}
