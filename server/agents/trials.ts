import { randomBytes } from "node:crypto";
import type { Monitor } from "../../api";
import { ApiError } from "../errors";
import type { CheckOutcome } from "../store/heartbeats";
import { checkKey } from "./lease-queue";

/** A trial not answered this long after its monitor's timeout is handed to another agent of the location. */
const HOLD_SLACK_MS = 5_000;
/** A trial waits at most this long in all: under the provider client's 30 s request timeout. */
const TRIAL_MAX_MS = 25_000;

interface Trial {
  key: string;
  queue: string;
  location: string;
  monitor: Monitor;
  /** Until when the agent that took it holds it (0: offered, not taken). */
  heldUntil: number;
  holdMs: number;
  answer: (outcome: CheckOutcome) => void;
}

/** A trial handed to an agent: its check key, its monitor, and until when the agent holds it. */
export interface TakenTrial {
  checkKey: string;
  monitor: Monitor;
  due: number;
  expires: number;
}

/**
 * Dry runs at an agent location (`POST /api/v1/monitors/test?location=NAME`): each waits, as a
 * lease would, for an agent of the location to ask for work; the agent runs the check and posts
 * its outcome under the trial's check key, which answers the waiting request (nothing is
 * recorded). A trial the agent does not answer within its hold goes to another agent; one no
 * agent answered in time ends in a 409 that names the location.
 */
export class Trials {
  private readonly byKey = new Map<string, Trial>();

  /** Whether `key` names a trial (answered, timed out, or waiting). */
  static isTrialKey(key: string): boolean {
    return key.startsWith("mon_trial_");
  }

  /**
   * Runs the check of `monitor` at the agents of `location` of the account; the outcome, or a 409.
   * `signal` withdraws the trial (the server stops).
   */
  run(accountId: string, location: string, monitor: Monitor, signal?: AbortSignal): Promise<CheckOutcome> {
    const id = `mon_trial_${randomBytes(9).toString("base64url")}`;
    const key = checkKey(id, location, Date.now());
    const holdMs = monitor.timeout_sec * 1000 + HOLD_SLACK_MS;
    const waitMs = Math.min(TRIAL_MAX_MS, holdMs + HOLD_SLACK_MS);
    return new Promise<CheckOutcome>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.byKey.delete(key);
        const why = trial.heldUntil > 0 ? "an agent took it but did not answer" : "no agent asked for work";
        reject(
          new ApiError(
            "conflict",
            `No agent of location ${location} ran the check within ${Math.round(waitMs / 1000)} s (${why}); see GET /api/v1/locations`,
          ),
        );
      }, waitMs);
      const trial: Trial = {
        key,
        queue: `${accountId}\u0000${location}`,
        location,
        monitor: { ...monitor, id },
        heldUntil: 0,
        holdMs,
        answer: (outcome) => {
          clearTimeout(timer);
          this.byKey.delete(key);
          resolve(outcome);
        },
      };
      this.byKey.set(key, trial);
      signal?.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          this.byKey.delete(key);
          reject(new ApiError("conflict", `The check at location ${location} was withdrawn: the server is stopping`));
        },
        { once: true },
      );
    });
  }

  /** Up to `max` trials of the account's location for an agent asking for work now. */
  take(accountId: string, location: string, max: number, now: number): TakenTrial[] {
    const queue = `${accountId}\u0000${location}`;
    const out: TakenTrial[] = [];
    for (const t of this.byKey.values()) {
      if (out.length >= max) break;
      if (t.queue !== queue || t.heldUntil > now) continue;
      t.heldUntil = now + t.holdMs;
      out.push({ checkKey: t.key, monitor: t.monitor, due: now, expires: t.heldUntil });
    }
    return out;
  }

  /** An agent's outcome for trial `key` of the account's `location`: true when a waiting trial took it. */
  answer(key: string, accountId: string, location: string, outcome: CheckOutcome): boolean {
    const trial = this.byKey.get(key);
    if (!trial || trial.queue !== `${accountId}\u0000${location}`) return false;
    trial.answer(outcome);
    return true;
  }
}
