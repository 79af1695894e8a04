import {
  LIST_LIMIT_MAX,
  locationsOf,
  MAX_TRIGGER_CHECKS,
  type Monitor,
  type TriggerRequest,
  type TriggerResult,
  type TriggerRun,
} from "../../api";
import type { Locations } from "../agents/locations";
import type { Checker } from "../checker/checker";
import { ApiError, validationFailed } from "../errors";
import type { Notifier } from "../notify/notifier";
import type { Store } from "../store";
import type { CheckOutcome } from "../store/heartbeats";
import type { Principal } from "../store/keys";
import { type DryRunService, unranResult } from "./dry-run";
import type { MonitorService } from "./monitors";

/** What a recorded trigger check needs: the store, the checker's health policy, the notifier. */
export interface TriggerRecorder {
  store: Store;
  checker: Pick<Checker, "policyFor">;
  notifier: Pick<Notifier, "notify">;
  locations: Pick<Locations, "builtin" | "policy">;
}

/**
 * The trigger: the selected monitors' checks now, at each of their locations (or one named
 * location), through the dry runs' slots, so a trigger never runs more checks of one key at once
 * than dry runs may. With `record` each result is stored as the scheduled check's would be.
 */
export class TriggerService {
  constructor(
    private readonly monitors: MonitorService,
    private readonly dryRuns: DryRunService,
    private readonly recorder: TriggerRecorder,
  ) {}

  async run(principal: Principal, body: TriggerRequest): Promise<TriggerResult> {
    const selected = await this.select(principal, body);
    const skipped = selected
      .filter((m) => m.status !== "active")
      .map((m) => ({ monitor_id: m.id, name: m.name, reason: "paused" }));
    const checks = selected
      .filter((m) => m.status === "active")
      .flatMap((m) =>
        (body.location ? [body.location] : locationsOf(m, this.recorder.locations.builtin)).map((location) => ({
          monitor: m,
          location,
        })),
      );
    if (checks.length > MAX_TRIGGER_CHECKS) {
      throw validationFailed([
        {
          field: "monitor_ids",
          message: `selects ${checks.length} checks; at most ${MAX_TRIGGER_CHECKS} per trigger: narrow it with tag or monitor_ids`,
        },
      ]);
    }
    const runs = await Promise.all(
      checks.map(({ monitor, location }) => this.check(principal, monitor, location, body.record)),
    );
    return { runs, skipped, passed: !runs.some((r) => r.status === "down") };
  }

  /** The monitors the body names: by id (each must exist: a 404 otherwise), then by tag. */
  private async select(principal: Principal, body: TriggerRequest): Promise<Monitor[]> {
    const tag = body.tag?.toLowerCase();
    if (body.monitor_ids) {
      const byId: Monitor[] = [];
      for (const id of new Set(body.monitor_ids)) byId.push(await this.monitors.get(principal, id));
      return tag === undefined ? byId : byId.filter((m) => m.tags.includes(tag));
    }
    const out: Monitor[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.monitors.list(principal, { tag, limit: LIST_LIMIT_MAX, cursor });
      out.push(...page.data);
      cursor = page.next_cursor ?? undefined;
    } while (cursor);
    return out;
  }

  private async check(principal: Principal, monitor: Monitor, location: string, record: boolean): Promise<TriggerRun> {
    // The built-in checker's location runs in the server; the dry runs know it by no name.
    const at = location === this.recorder.locations.builtin ? undefined : location;
    let ran: Awaited<ReturnType<DryRunService["forTrigger"]>>;
    try {
      ran = await this.dryRuns.forTrigger(principal, monitor, at);
    } catch (err) {
      // A location with no live agent fails its own check, with the reason; the others run.
      if (!(err instanceof ApiError) || err.code !== "conflict") throw err;
      return {
        ...unrun(err.message),
        monitor_id: monitor.id,
        name: monitor.name,
        url: targetOf(monitor),
        location,
        recorded: false,
      };
    }
    const { outcome, result } = ran;
    const recorded =
      record &&
      outcome !== undefined &&
      (await this.record(principal, monitor, location, outcome, Date.parse(result.checked_at)));
    return { ...result, monitor_id: monitor.id, name: monitor.name, url: targetOf(monitor), location, recorded };
  }

  /** Stores the check as the scheduled one at `location` would be: a heartbeat, health, alerts. */
  private async record(
    principal: Principal,
    monitor: Monitor,
    location: string,
    outcome: CheckOutcome,
    at: number,
  ): Promise<boolean> {
    const { store, checker, notifier, locations } = this.recorder;
    const scheduled = { ...monitor, account_id: principal.accountId };
    const policy = { ...(await checker.policyFor(scheduled as never, at)), ...locations.policy(scheduled, location) };
    const recorded = await store.recordCheck(monitor.id, outcome, at, policy);
    if (!recorded || recorded.duplicate) return false;
    if (recorded.transition)
      await notifier.notify(
        scheduled as never,
        `monitor.${recorded.transition}`,
        recorded.heartbeat,
        recorded.failedLocations,
      );
    return true;
  }
}

/** The result of a check that could not be run at its location: down, with the reason. */
function unrun(reason: string): Omit<TriggerRun, "monitor_id" | "name" | "url" | "location" | "recorded"> {
  return unranResult("down", reason);
}

/** A monitor's target: its `url`, or a multi-step monitor's first step's (it has none of its own). */
const targetOf = (monitor: Monitor): string | null => monitor.url ?? monitor.steps?.[0]?.url ?? null;
