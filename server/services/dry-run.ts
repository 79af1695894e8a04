import {
  ASSERTION_DEFAULTS,
  type CreateMonitor,
  MONITOR_EXTENSION_DEFAULTS,
  DRY_RUN_CONCURRENCY,
  type Monitor,
  type MonitorSpec,
  type MonitorTestResult,
  NOTHING_TO_RUN,
  unknownLocationMessage,
} from "../../api";
import type { Locations } from "../agents/locations";
import type { Trials } from "../agents/trials";
import type { Checker } from "../checker/checker";
import { monitorType } from "../checker/monitor-types/registry";
import { ApiError, validationFailed } from "../errors";
import type { CheckOutcome } from "../store/heartbeats";
import type { Principal } from "../store/keys";
import type { MonitorService } from "./monitors";

const DAY_MS = 86_400_000;
/** How often a trigger's check waiting for a slot of its key looks again. */
const SLOT_POLL_MS = 50;

/** What a heartbeat monitor answers: the service waits for pings, it has no request to make. */
const HEARTBEAT_ANSWER = "heartbeat monitors are pinged by their job, not probed: nothing to run";

/**
 * Dry runs: one check now, of a spec (validated as a create) or of an existing monitor, recorded
 * nowhere (no heartbeat, no health change, no notification). At most `cap` dry runs of one API key
 * run at once: one more is refused at once with a 429 and `Retry-After: 1`, rather than queued,
 * so a client's own timeout never runs out behind other checks.
 */
export class DryRunService {
  private readonly running = new Map<string, number>();

  constructor(
    private readonly monitors: MonitorService,
    private readonly checker: Pick<Checker, "runOnce">,
    /** Where agent locations' dry runs go (none: every dry run runs in the server). */
    private readonly agents?: { locations: Locations; trials: Trials },
    private readonly cap = DRY_RUN_CONCURRENCY,
  ) {}

  /** Runs the check `body` would get if it were created, at `location` (default: the built-in checker's). */
  async ofSpec(principal: Principal, body: CreateMonitor, location?: string): Promise<MonitorTestResult> {
    const spec = await this.monitors.validate(principal, body);
    return this.run(principal, spec, location);
  }

  /** Runs the check of the existing monitor `id`, paused or not, at `location`. */
  async ofMonitor(principal: Principal, id: string, location?: string): Promise<MonitorTestResult> {
    return this.run(principal, await this.monitors.get(principal, id), location);
  }

  /**
   * Runs the check of the stored monitor at `location` for a trigger (trigger.ts): waits for one of
   * the key's slots instead of refusing, and answers the outcome a heartbeat would record as well
   * (none when there was nothing to run).
   */
  async forTrigger(
    principal: Principal,
    monitor: Monitor,
    location: string | undefined,
  ): Promise<{ outcome?: CheckOutcome; result: MonitorTestResult }> {
    const ran = await this.outcome(principal, monitor, location, true);
    return { ...ran, result: ran.outcome ? resultOf(ran.outcome, ran.at) : nothingToRun(ran.at) };
  }

  private async run(principal: Principal, spec: MonitorSpec | Monitor, location?: string): Promise<MonitorTestResult> {
    const ran = await this.outcome(principal, spec, location, false);
    return ran.outcome ? resultOf(ran.outcome, ran.at) : nothingToRun(ran.at);
  }

  /** Waits (`wait`) or refuses with a 429 while `cap` dry runs of the key are under way. */
  private async slot(principal: Principal, wait: boolean): Promise<void> {
    for (;;) {
      const inFlight = this.running.get(principal.keyId) ?? 0;
      if (inFlight < this.cap) {
        this.running.set(principal.keyId, inFlight + 1);
        return;
      }
      if (!wait) {
        throw new ApiError(
          "rate_limited",
          `At most ${this.cap} dry runs of one API key run at once; retry in 1 s`,
          undefined,
          { "retry-after": "1" },
        );
      }
      await new Promise((resolve) => setTimeout(resolve, SLOT_POLL_MS));
    }
  }

  private async outcome(
    principal: Principal,
    spec: MonitorSpec | Monitor,
    location: string | undefined,
    wait: boolean,
  ): Promise<{ outcome?: CheckOutcome; at: number }> {
    const atAgent = await this.agentLocation(principal, location);
    if (!monitorType(spec.type).probes) return { at: Date.now() };
    await this.slot(principal, wait);
    const now = Date.now();
    try {
      if (atAgent && this.agents) {
        const outcome = await this.agents.trials.run(principal.accountId, atAgent, trialMonitor(spec, now));
        return { outcome, at: Date.now() };
      }
      // The runner reads only the spec; the id is one no stored monitor has.
      const monitor = {
        id: "mon_dry_run",
        status: "active",
        last_checked_at: null,
        ...spec,
        account_id: principal.accountId,
      };
      return { outcome: await this.checker.runOnce(monitor as never, now), at: now };
    } finally {
      const left = (this.running.get(principal.keyId) ?? 1) - 1;
      if (left > 0) this.running.set(principal.keyId, left);
      else this.running.delete(principal.keyId);
    }
  }

  /**
   * The agent location the dry run goes to; undefined for the server's own checker. An unknown
   * location is a 422 naming it; one with no live agent a 409 saying so.
   */
  private async agentLocation(principal: Principal, location: string | undefined): Promise<string | undefined> {
    if (location === undefined || !this.agents) return undefined;
    const { locations } = this.agents;
    const known = await locations.known(principal.accountId);
    if (!known.includes(location)) {
      throw validationFailed([{ field: "location", message: unknownLocationMessage(location, known) }]);
    }
    if (location === locations.builtin && locations.builtinRuns) return undefined;
    if (!locations.live(principal.accountId).has(location)) {
      throw new ApiError(
        "conflict",
        `Location ${location} has no live agent (none in contact within ${Math.round(locations.liveMs / 1000)} s): start one with uptime-server agent --location ${location}`,
      );
    }
    return location;
  }
}

/** The spec as the monitor an agent's lease carries (the agent reads only the spec). */
function trialMonitor(spec: MonitorSpec | Monitor, now: number): Monitor {
  const at = new Date(now).toISOString();
  const base = {
    id: "",
    unchecked_locations: [],
    status: "active",
    health: "pending",
    last_checked_at: null,
    external_id: null,
    created_at: at,
    updated_at: at,
  };
  return { ...base, ...MONITOR_EXTENSION_DEFAULTS, ...ASSERTION_DEFAULTS, ...spec } as Monitor;
}

function nothingToRun(now: number): MonitorTestResult {
  return unranResult(NOTHING_TO_RUN, HEARTBEAT_ANSWER, now);
}

/** A test's or a trigger's result when no check ran: `status` with the reason, and no measurements. */
export function unranResult<S extends string>(status: S, reason: string, now = Date.now()) {
  return {
    status,
    checked_at: new Date(now).toISOString(),
    error: reason,
    error_class: null,
    response_time_ms: null,
    status_code: null,
    assertions: [],
    timings: null,
    cert_expires_at: null,
    cert_days_left: null,
  };
}

/** The outcome as a heartbeat would show it, with the certificate's days left. */
function resultOf(o: CheckOutcome, now: number): MonitorTestResult {
  const expires = o.cert_expires_at ?? null;
  return {
    status: o.up ? (o.degraded ? "degraded" : "up") : "down",
    checked_at: new Date(now).toISOString(),
    error: o.error,
    error_class: o.up ? null : (o.error_class ?? null),
    response_time_ms: o.response_time_ms,
    status_code: o.status_code,
    assertions: o.assertions ?? [],
    timings: o.timings ?? null,
    cert_expires_at: expires,
    cert_days_left: expires === null ? null : Math.floor((Date.parse(expires) - now) / DAY_MS),
    ...(o.steps ? { steps: o.steps } : {}),
    ...(o.attempts ? { attempts: o.attempts } : {}),
    ...(o.browser ? { browser: o.browser, screenshot_png: o.screenshot ? o.screenshot.toString("base64") : null } : {}),
  };
}
