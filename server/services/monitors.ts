import {
  type CreateMonitor,
  type ErrorDetail,
  type Monitor,
  type MonitorSpec,
  monitorRuleViolations,
  toMonitorSpec,
  type UpdateMonitor,
} from "../../api";
import type { ServerOptions } from "../config";
import { ApiError, notFound, validationFailed } from "../errors";
import type { Store } from "../store";
import type { Principal } from "../store/keys";
import { assertExternalIdFree } from "./external-ids";

/** The monitor's writable fields, as stored. */
export function specOf(m: Monitor): MonitorSpec {
  const { id: _i, status: _s, health: _h, last_checked_at: _l, created_at: _c, updated_at: _u, external_id: _e, ...spec } = m;
  return spec;
}

/** The cap of an account: its own limit, else the server's; never below the free 10. */
export function monitorCap(principal: Principal, options: ServerOptions): number | null {
  const limit = principal.monitorLimit ?? options.monitorLimit;
  return limit === null ? null : Math.max(10, limit);
}

function check(store: Store, options: ServerOptions, accountId: string, spec: MonitorSpec): void {
  const details: ErrorDetail[] = monitorRuleViolations(spec, options.minIntervalSec);
  const existing = store.monitors.existingChannels(accountId, spec.channel_ids);
  spec.channel_ids.forEach((id, i) => {
    if (!existing.has(id))
      details.push({ field: `channel_ids[${i}]`, message: `channel ${id} does not exist` });
  });
  if (details.length) throw validationFailed(details);
}

export function createMonitor(
  store: Store,
  options: ServerOptions,
  principal: Principal,
  body: CreateMonitor,
): Monitor {
  const cap = monitorCap(principal, options);
  if (cap !== null && store.monitors.count(principal.accountId) >= cap) {
    throw new ApiError("monitor_limit_reached", `This account may have at most ${cap} monitors`);
  }
  const spec = toMonitorSpec(body as never);
  check(store, options, principal.accountId, spec);
  assertExternalIdFree(store, "monitors", principal.accountId, body.external_id);
  return store.monitors.create(principal.accountId, spec, body.external_id ?? null);
}

export function updateMonitor(
  store: Store,
  options: ServerOptions,
  principal: Principal,
  id: string,
  body: UpdateMonitor,
): Monitor {
  const current = store.monitors.get(principal.accountId, id);
  if (!current) throw notFound("monitor", id);
  const spec = toMonitorSpec({ ...(body as object), type: current.type } as never, specOf(current));
  check(store, options, principal.accountId, spec);
  assertExternalIdFree(store, "monitors", principal.accountId, body.external_id, id);
  return store.monitors.update(principal.accountId, id, spec, body.external_id) ?? current;
}

export function getMonitor(store: Store, principal: Principal, id: string): Monitor {
  const monitor = store.monitors.get(principal.accountId, id);
  if (!monitor) throw notFound("monitor", id);
  return monitor;
}
