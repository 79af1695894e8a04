import type { Checker } from "../checker/checker";
import { ApiError, notFound } from "../errors";
import type { Notifier } from "../notify/notifier";
import type { Store } from "../store";
import type { Principal } from "../store/keys";

/** What a ping needs besides the store: the checker's health policy and the notifier. */
export interface PushRecorder {
  checker: Pick<Checker, "policyFor">;
  notifier: Pick<Notifier, "notify">;
}

/** Heartbeat monitors' push URLs: issuing a token, and recording a ping as an up check. */
export class PushService {
  constructor(
    private readonly store: Store,
    private readonly recorder: PushRecorder,
  ) {}

  /** A new push token for the heartbeat monitor `id` (the previous one stops working). */
  async issueToken(principal: Principal, id: string): Promise<string> {
    const monitor = await this.store.monitors.get(principal.accountId, id);
    if (!monitor) throw notFound("monitor", id);
    if ((monitor.type as string) !== "heartbeat") {
      throw new ApiError("validation_failed", "Only heartbeat monitors have a push URL", [
        { field: "type", message: `is ${monitor.type}; push URLs belong to heartbeat monitors` },
      ]);
    }
    return await this.store.pushTokens.issue(monitor.id);
  }

  /** Records the ping of `token` as an up check; answers when it was received. */
  async ping(token: string): Promise<string> {
    const monitorId = await this.store.pushTokens.monitorOf(token);
    const monitor = monitorId ? await this.store.monitors.find(monitorId) : undefined;
    // One answer for unknown tokens and deleted monitors, so tokens cannot be probed.
    if (!monitor) throw new ApiError("not_found", "No heartbeat monitor has this push token");
    const recorded = await this.store.recordCheck(
      monitor.id,
      { up: true, response_time_ms: null, status_code: null, error: null },
      Date.now(),
      await this.recorder.checker.policyFor(monitor),
    );
    if (recorded?.transition)
      await this.recorder.notifier.notify(
        monitor,
        recorded.transition === "down" ? "monitor.down" : "monitor.up",
        recorded.heartbeat,
      );
    return recorded?.heartbeat?.checked_at ?? new Date().toISOString();
  }
}
