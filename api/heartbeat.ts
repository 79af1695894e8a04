import { z } from "zod";
import { queryInt, Timestamp } from "./common";

/** One check result. */
export const HeartbeatSchema = z
  .object({
    id: z.string(),
    monitor_id: z.string(),
    checked_at: Timestamp,
    /** `maintenance`: a failed check inside a maintenance window (extension), not downtime. */
    status: z.enum(["up", "down", "maintenance"]),
    response_time_ms: z.int().nullable(),
    status_code: z.int().nullable(),
    error: z.string().nullable(),
    /** https monitors with `ssl_expiry_days`: when the certificate expires (extension). */
    cert_expires_at: Timestamp.nullable().optional(),
  })
  .meta({ id: "Heartbeat" });
export type Heartbeat = z.infer<typeof HeartbeatSchema>;

/** Query of `GET …/heartbeats`: `hours` 1..720, default 24. */
export const HeartbeatsQuerySchema = z.strictObject({
  hours: queryInt(1, 720, 24),
});

/** Query of `GET …/stats`: `days` 1..90, default 30. */
export const StatsQuerySchema = z.strictObject({
  days: queryInt(1, 90, 30),
});

/** Stats of a monitor over `days` days, with a UTC daily breakdown. */
export const StatsSchema = z
  .object({
    monitor_id: z.string(),
    from: Timestamp,
    to: Timestamp,
    checks: z.int(),
    up_checks: z.int(),
    down_checks: z.int(),
    /** Failed checks inside maintenance windows (extension): neither up nor down. */
    maintenance_checks: z.int().optional(),
    /** null when there were no checks. */
    uptime_pct: z.number().nullable(),
    avg_response_ms: z.number().nullable(),
    p95_response_ms: z.number().nullable(),
    incidents: z.int(),
    downtime_sec: z.int(),
    daily: z.array(
      z.object({
        date: z.iso.date(),
        checks: z.int(),
        uptime_pct: z.number().nullable(),
        avg_response_ms: z.number().nullable(),
      }),
    ),
  })
  .meta({ id: "Stats" });
export type Stats = z.infer<typeof StatsSchema>;
