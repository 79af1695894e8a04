import type { CreateMonitor, MonitorTestResult } from "../../api";
import type { UptimeClient } from "./client";

/**
 * Runs one check of a monitor now, stored nowhere (the server's dry-run extension): of `spec`, the
 * body a create would send, or of the existing monitor `{ id }`. Safe to repeat, so it is retried
 * like a GET; a 429 (the key's rate limit or its 4 dry runs at once) is waited out. `location`
 * runs it at that checker location (an agent's), default the server's built-in checker.
 */
export async function dryRunMonitor(
  client: UptimeClient,
  target: CreateMonitor | { id: string },
  location?: string,
): Promise<MonitorTestResult> {
  const byId = "id" in target && typeof target.id === "string" && !("type" in target);
  const path = byId
    ? `/api/v1/monitors/${encodeURIComponent((target as { id: string }).id)}/test`
    : "/api/v1/monitors/test";
  const answer = await client.request<MonitorTestResult>("POST", path, {
    body: byId ? undefined : target,
    query: { location },
    idempotent: true,
  });
  return answer.data;
}
