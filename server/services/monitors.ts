import {
  type CreateMonitor,
  type ErrorDetail,
  type Heartbeat,
  type ListQuery,
  type Monitor,
  type MonitorSpec,
  monitorRuleViolations,
  READ_ONLY_FIELDS,
  type Stats,
  toMonitorSpec,
  type UpdateMonitor,
  alertingViolations,
  browserLocationViolations,
  locationsOf,
  locationsTargetProblem,
  stepsTargetProblems,
  unknownLocationMessage,
} from "../../api";
import type { Locations } from "../agents/locations";
import type { Checker } from "../checker/checker";
import type { ServerOptions } from "../config";
import { ApiError, notFound, validationFailed } from "../errors";
import type { Store } from "../store";
import type { Principal } from "../store/keys";
import { assertExternalIdFree } from "./external-ids";
import { type ListPage, listPage } from "./paging";

/** What a list of monitors can be filtered by, besides the page. */
export interface MonitorListQuery extends ListQuery {
  tag?: string;
  status?: Monitor["status"];
}

/** The monitor's writable fields, as stored (the mark `external_id` is kept apart from the spec). */
export function specOf(m: Monitor): MonitorSpec {
  const writable = Object.entries(m).filter(([k]) => !READ_ONLY_FIELDS.has(k) && k !== "external_id");
  return Object.fromEntries(writable) as unknown as MonitorSpec;
}

/** The cap of an account: its own limit, else the server's; never below the free 10. */
export function monitorCap(principal: Principal, options: ServerOptions): number | null {
  const limit = principal.monitorLimit ?? options.monitorLimit;
  return limit === null ? null : Math.max(10, limit);
}

/** Monitors of an account: rules, references, the cap, and the checker told of every change. */
export class MonitorService {
  constructor(
    private readonly store: Store,
    private readonly options: ServerOptions,
    private readonly checker: Pick<Checker, "refresh">,
    private readonly locations: Locations,
  ) {}

  async list(principal: Principal, query: MonitorListQuery): Promise<ListPage<Monitor>> {
    const page = await listPage(async () => await this.store.monitors.list(principal.accountId, query));
    const live = this.locations.live(principal.accountId);
    return { ...page, data: page.data.map((m) => this.located(principal, m, live)) };
  }

  async get(principal: Principal, id: string): Promise<Monitor> {
    return this.located(principal, await this.stored(principal, id));
  }

  /**
   * The monitor with `unchecked_locations` as of now (the stored read is cached; liveness changes by
   * the second). For a kept (frozen) read, the located copy is kept with it while its locations stay
   * unchecked alike, so that its answer's JSON can be kept too.
   */
  private located(principal: Principal, monitor: Monitor, live?: ReadonlySet<string>): Monitor {
    const unchecked = this.locations.unchecked(principal.accountId, monitor, live);
    if (unchecked.length === 0 && monitor.unchecked_locations.length === 0) return monitor;
    const key = unchecked.join("\n");
    const kept = this.locatedReads.get(monitor);
    if (kept?.key === key) return kept.monitor;
    const located = Object.freeze({ ...monitor, unchecked_locations: Object.freeze(unchecked) as string[] });
    if (Object.isFrozen(monitor)) this.locatedReads.set(monitor, { key, monitor: located });
    return located;
  }

  /** Located copies of kept reads (see `located`), by the read. */
  private readonly locatedReads = new WeakMap<Monitor, { key: string; monitor: Monitor }>();

  private async stored(principal: Principal, id: string): Promise<Monitor> {
    const monitor = await this.store.monitors.get(principal.accountId, id);
    if (!monitor) throw notFound("monitor", id);
    return monitor;
  }

  async create(principal: Principal, body: CreateMonitor): Promise<Monitor> {
    const cap = monitorCap(principal, this.options);
    if (cap !== null && (await this.store.monitors.count(principal.accountId)) >= cap) {
      throw new ApiError("monitor_limit_reached", `This account may have at most ${cap} monitors`);
    }
    const spec = await this.validate(principal, body);
    await assertExternalIdFree(this.store, "monitors", principal.accountId, body.external_id);
    return await this.changed(
      await this.store.monitors.create(principal.accountId, spec, body.external_id ?? null),
      principal,
    );
  }

  /** The spec a create of `body` would store, judged by the create's rules (a 422 naming each field). */
  async validate(principal: Principal, body: CreateMonitor): Promise<MonitorSpec> {
    const spec = toMonitorSpec(body as never);
    await this.check(principal.accountId, spec);
    return spec;
  }

  async update(principal: Principal, id: string, body: UpdateMonitor): Promise<Monitor> {
    const current = await this.stored(principal, id);
    const spec = toMonitorSpec({ ...(body as object), type: current.type } as never, specOf(current));
    await this.check(principal.accountId, spec);
    await assertExternalIdFree(this.store, "monitors", principal.accountId, body.external_id, id);
    return await this.changed(
      (await this.store.monitors.update(principal.accountId, id, spec, body.external_id)) ?? current,
      principal,
    );
  }

  async delete(principal: Principal, id: string): Promise<Monitor> {
    const monitor = await this.store.monitors.delete(principal.accountId, id);
    if (!monitor) throw notFound("monitor", id);
    return await this.changed(monitor);
  }

  /** Pause or resume; a no-op that returns the monitor when it already is in that status. */
  async setStatus(principal: Principal, id: string, status: Monitor["status"]): Promise<Monitor> {
    const monitor = await this.store.monitors.setStatus(principal.accountId, id, status);
    if (!monitor) throw notFound("monitor", id);
    return await this.changed(monitor, principal);
  }

  async heartbeats(principal: Principal, id: string, hours: number): Promise<Heartbeat[]> {
    return await this.store.heartbeats.recent((await this.stored(principal, id)).id, hours);
  }

  /** The screenshot a failed browser run of the monitor left with heartbeat `heartbeatId`. */
  async screenshot(principal: Principal, id: string, heartbeatId: string): Promise<Buffer> {
    const png = await this.store.heartbeats.screenshot((await this.stored(principal, id)).id, heartbeatId);
    if (!png) throw notFound("screenshot of heartbeat", heartbeatId);
    return png;
  }

  /** Stats with their breakdown by location (the monitor's locations first, live or not). */
  async stats(principal: Principal, id: string, days: number): Promise<Stats> {
    const monitor = await this.stored(principal, id);
    const live = this.locations.live(principal.accountId);
    const locations = await this.store.heartbeats.locationStats(
      monitor.id,
      days,
      locationsOf(monitor, this.locations.builtin),
      (l) => live.has(l),
    );
    return { ...(await this.store.heartbeats.stats(monitor.id, days)), locations };
  }

  private async changed(monitor: Monitor, principal?: Principal): Promise<Monitor> {
    await this.checker.refresh(monitor.id);
    return principal ? this.located(principal, monitor) : monitor;
  }

  private async check(accountId: string, spec: MonitorSpec): Promise<void> {
    const details: ErrorDetail[] = monitorRuleViolations(spec, this.options.minIntervalSec);
    // A heartbeat has no URL; a DNS monitor's URL names a record to resolve, not a host to connect to.
    const outbound = spec.url !== null && spec.type !== "dns" && !details.some((d) => d.field === "url");
    const policies = () => this.locations.policies(accountId, locationsOf(spec, this.locations.builtin));
    const target = outbound ? locationsTargetProblem(spec.url as string, await policies()) : undefined;
    if (target) details.push({ field: "url", message: target });
    // Each step's URL as every monitor's `url`; one that failed its own rule is named already.
    if (spec.type === "multistep" && spec.steps.length > 0) {
      const judged = stepsTargetProblems(spec.steps, await policies());
      details.push(...judged.filter((d) => !details.some((e) => e.field === d.field)));
    }
    if (spec.type === "browser") {
      // Whether each location can run browser checks, asked of the store once per location.
      const names = locationsOf(spec, this.locations.builtin);
      const can = new Map(
        await Promise.all(
          names.map(async (name) => [name, await this.locations.runsBrowser(accountId, name)] as const),
        ),
      );
      details.push(...browserLocationViolations(spec, (name) => can.get(name), this.locations.builtin));
    }
    const existing = await this.store.monitors.existingChannels(accountId, spec.channel_ids);
    spec.channel_ids.forEach((id, i) => {
      if (!existing.has(id)) details.push({ field: `channel_ids[${i}]`, message: `channel ${id} does not exist` });
    });
    details.push(...alertingViolations(spec, this.options.minIntervalSec));
    if (spec.locations !== null) {
      const known = await this.locations.known(accountId);
      spec.locations.forEach((name, i) => {
        if (!known.includes(name)) {
          details.push({ field: `locations[${i}]`, message: unknownLocationMessage(name, known) });
        }
      });
    }
    for (const [i, step] of spec.escalation.entries()) {
      const owned = await this.store.monitors.existingChannels(accountId, step.channels);
      step.channels.forEach((id, j) => {
        if (!owned.has(id))
          details.push({ field: `escalation[${i}].channels[${j}]`, message: `channel ${id} does not exist` });
      });
    }
    if (details.length) throw validationFailed(details);
  }
}
