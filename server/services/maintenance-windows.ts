import {
  type CreateMaintenanceWindow,
  type ErrorDetail,
  type ListQuery,
  type MaintenanceWindow,
  type MaintenanceWindowSpec,
  maintenanceWindowViolations,
  toMaintenanceWindowSpec,
  type UpdateMaintenanceWindow,
} from "../../api";
import { notFound, validationFailed } from "../errors";
import { assertExternalIdFree } from "./external-ids";
import type { Store } from "../store";
import type { Principal } from "../store/keys";
import { type ListPage, listPage } from "./paging";

async function check(store: Store, accountId: string, spec: MaintenanceWindowSpec): Promise<void> {
  const details: ErrorDetail[] = maintenanceWindowViolations(spec);
  const existing = await store.maintenanceWindows.existingMonitors(accountId, spec.monitor_ids);
  spec.monitor_ids.forEach((id, i) => {
    if (!existing.has(id)) details.push({ field: `monitor_ids[${i}]`, message: `monitor ${id} does not exist` });
  });
  if (details.length) throw validationFailed(details);
}

/** Maintenance windows of an account: the handlers of `/api/v1/maintenance-windows`. */
export class MaintenanceWindowService {
  constructor(private readonly store: Store) {}

  async list(principal: Principal, query: ListQuery): Promise<ListPage<MaintenanceWindow>> {
    return await listPage(
      async () => await this.store.maintenanceWindows.list(principal.accountId, query.limit, query.cursor),
    );
  }

  async get(principal: Principal, id: string): Promise<MaintenanceWindow> {
    const window = await this.store.maintenanceWindows.get(principal.accountId, id);
    if (!window) throw notFound("maintenance window", id);
    return window;
  }

  async create(principal: Principal, body: CreateMaintenanceWindow): Promise<MaintenanceWindow> {
    const spec = toMaintenanceWindowSpec(body);
    await check(this.store, principal.accountId, spec);
    await assertExternalIdFree(this.store, "maintenance_windows", principal.accountId, body.external_id);
    return await this.store.maintenanceWindows.create(principal.accountId, spec, body.external_id ?? null);
  }

  async update(principal: Principal, id: string, body: UpdateMaintenanceWindow): Promise<MaintenanceWindow> {
    const {
      id: _i,
      active: _a,
      external_id: _e,
      created_at: _c,
      updated_at: _u,
      ...current
    } = await this.get(principal, id);
    const spec = toMaintenanceWindowSpec(body, current);
    await check(this.store, principal.accountId, spec);
    await assertExternalIdFree(this.store, "maintenance_windows", principal.accountId, body.external_id, id);
    return (await this.store.maintenanceWindows.update(
      principal.accountId,
      id,
      spec,
      body.external_id,
    )) as MaintenanceWindow;
  }

  async delete(principal: Principal, id: string): Promise<MaintenanceWindow> {
    const window = await this.store.maintenanceWindows.delete(principal.accountId, id);
    if (!window) throw notFound("maintenance window", id);
    return window;
  }
}
