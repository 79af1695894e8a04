import type { Executor } from "./sql/executor";

/**
 * Browser monitors' screenshots: one PNG per failed run, stored beside its heartbeat (deleted with
 * it by the foreign key, so the heartbeats' retention covers them).
 */

/** Stores the screenshot of heartbeat `heartbeatId` (call inside the heartbeat's transaction). */
export async function saveScreenshot(db: Executor, heartbeatId: string, monitorId: string, png: Buffer): Promise<void> {
  await db
    .prepare("INSERT INTO heartbeat_screenshots (heartbeat_id, monitor_id, png) VALUES (?, ?, ?)")
    .run(heartbeatId, monitorId, png);
}

/** The screenshot of heartbeat `heartbeatId` of monitor `monitorId`, or undefined. */
export async function readScreenshot(
  db: Executor,
  monitorId: string,
  heartbeatId: string,
): Promise<Buffer | undefined> {
  const row = (await db
    .prepare("SELECT png FROM heartbeat_screenshots WHERE heartbeat_id = ? AND monitor_id = ?")
    .get(heartbeatId, monitorId)) as { png: Uint8Array } | undefined;
  return row ? Buffer.from(row.png) : undefined;
}
