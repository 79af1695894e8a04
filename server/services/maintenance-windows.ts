import {
  type CreateMaintenanceWindow,
  type ErrorDetail,
  type MaintenanceWindow,
  type MaintenanceWindowSpec,
  maintenanceWindowViolations,
  toMaintenanceWindowSpec,
  type UpdateMaintenanceWindow,
} from "../../api";
import { notFound, validationFailed } from "../errors";
import { assertExternalIdFree } from "./external-ids";
import type { Store } from "../store";

function check(store: Store, accountId: string, spec: MaintenanceWindowSpec): void {
  const details: ErrorDetail[] = maintenanceWindowViolations(spec);
  const existing = store.maintenanceWindows.existingMonitors(accountId, spec.monitor_ids);
  spec.monitor_ids.forEach((id, i) => {
    if (!existing.has(id)) details.push({ field: `monitor_ids[${i}]`, message: `monitor ${id} does not exist` });
  });
  if (details.length) throw validationFailed(details);
}

export function getMaintenanceWindow(store: Store, accountId: string, id: string): MaintenanceWindow {
  const window = store.maintenanceWindows.get(accountId, id);
  if (!window) throw notFound("maintenance window", id);
  return window;
}

export function createMaintenanceWindow(store: Store, accountId: string, body: CreateMaintenanceWindow): MaintenanceWindow {
  const spec = toMaintenanceWindowSpec(body);
  check(store, accountId, spec);
  assertExternalIdFree(store, "maintenance_windows", accountId, body.external_id);
  return store.maintenanceWindows.create(accountId, spec, body.external_id ?? null);
}

export function updateMaintenanceWindow(
  store: Store,
  accountId: string,
  id: string,
  body: UpdateMaintenanceWindow,
): MaintenanceWindow {
  const { id: _i, active: _a, external_id: _e, created_at: _c, updated_at: _u, ...current } = getMaintenanceWindow(store, accountId, id);
  const spec = toMaintenanceWindowSpec(body, current);
  check(store, accountId, spec);
  assertExternalIdFree(store, "maintenance_windows", accountId, body.external_id, id);
  return store.maintenanceWindows.update(accountId, id, spec, body.external_id) as MaintenanceWindow;
}

export function deleteMaintenanceWindow(store: Store, accountId: string, id: string): MaintenanceWindow {
  const window = store.maintenanceWindows.delete(accountId, id);
  if (!window) throw notFound("maintenance window", id);
  return window;
}
