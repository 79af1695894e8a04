import { z } from "zod";
import { BrowserEvidenceSchema } from "./browser-evidence";
import { queryInt, Timestamp } from "./common";

/** What kind of failure a check was: name resolution, connection, TLS, timeout, HTTP status, or an assertion (keyword included). */
export const ERROR_CLASSES = ["dns", "connect", "tls", "timeout", "http", "assertion"] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

/**
 * The phases of a check in ms, each null when not measured: `first_byte_ms` (response headers)
 * and `total_ms` (body read); for a new connection `dns_ms` and `connect_ms` (http), or `tls_ms`
 * (https: DNS, TCP and the handshake together); 0 for a reused, pooled connection; `connect_ms`
 * for tcp checks.
 */
export const CheckTimingsSchema = z
  .object({
    dns_ms: z.int().nullable(),
    connect_ms: z.int().nullable(),
    tls_ms: z.int().nullable(),
    first_byte_ms: z.int().nullable(),
    total_ms: z.int().nullable(),
  })
  .meta({ id: "CheckTimings" });
export type CheckTimings = z.infer<typeof CheckTimingsSchema>;

/** One assertion's outcome in a heartbeat. */
export const AssertionResultSchema = z
  .object({
    source: z.string(),
    property: z.string().nullable(),
    comparison: z.string(),
    /** The expected value (the assertion's target). */
    target: z.string().nullable(),
    /** The value found, as text (at most 200 characters). */
    actual: z.string().nullable(),
    pass: z.boolean(),
    /** Why it could not be judged, e.g. a body that is not JSON. */
    reason: z.string().optional(),
  })
  .meta({ id: "AssertionResult" });

/** How one step of a multi-step run ended: `skipped` when an earlier step failed and it is no clean-up. */
export const STEP_STATUSES = ["passed", "failed", "skipped"] as const;

/** One step's outcome in a multi-step monitor's heartbeat, dry run or agent result. */
export const StepResultSchema = z
  .object({
    /** The step's name. */
    name: z.string(),
    status: z.enum(STEP_STATUSES),
    /** Whether the step is a clean-up (runs even after a failed step). */
    cleanup: z.boolean(),
    status_code: z.int().nullable(),
    /** From the step's start to the end of its response; null when it did not run. */
    response_time_ms: z.int().nullable(),
    /** Why it failed, values of secret variables masked (`****`); null when it passed or was skipped. */
    error: z.string().nullable(),
    error_class: z.enum(ERROR_CLASSES).nullable(),
    /** Each of the step's assertions, in order. */
    assertions: z.array(AssertionResultSchema),
  })
  .meta({ id: "StepResult" });
export type StepResult = z.infer<typeof StepResultSchema>;

/** One attempt of a run with retries (see `retry`): the run's heartbeat is its last attempt's. */
export const CheckAttemptSchema = z
  .object({
    /** Milliseconds from the run's start to the attempt's. */
    started_ms: z.int(),
    up: z.boolean(),
    status_code: z.int().nullable(),
    response_time_ms: z.int().nullable(),
    error: z.string().nullable(),
    error_class: z.enum(ERROR_CLASSES).nullable(),
    /** Where the attempt ran: present when retries run at other locations (`retry.location: "other"`). */
    location: z.string().optional(),
  })
  .meta({ id: "CheckAttempt" });
export type CheckAttempt = z.infer<typeof CheckAttemptSchema>;

/** What a check records beyond its outcome, for the kinds of monitors that have it: a heartbeat's and a dry run's. */
export const CHECK_DETAILS = {
  /** multistep monitors: each step's outcome, in order. */
  steps: z.array(StepResultSchema).optional(),
  /** Monitors with `retry`: every attempt of the run, when there was more than one. */
  attempts: z.array(CheckAttemptSchema).optional(),
  /** browser monitors: the run's evidence (failing line, console errors, steps, screenshot). */
  browser: BrowserEvidenceSchema.optional(),
};

/** One check result. */
export const HeartbeatSchema = z
  .object({
    id: z.string(),
    monitor_id: z.string(),
    checked_at: Timestamp,
    /**
     * `maintenance`: a failed check inside a maintenance window (extension), not downtime;
     * `degraded`: up, but slower than `degraded_response_ms` (counted as up in uptime).
     */
    status: z.enum(["up", "degraded", "down", "maintenance"]),
    response_time_ms: z.int().nullable(),
    status_code: z.int().nullable(),
    error: z.string().nullable(),
    /** https monitors with `ssl_expiry_days`: when the certificate expires (extension). */
    cert_expires_at: Timestamp.nullable().optional(),
    /** Why it failed: `dns`, `connect`, `tls`, `timeout`, `http` or `assertion`; null when up. */
    error_class: z.enum(ERROR_CLASSES).nullable().optional(),
    /** Each assertion's outcome, in order (http and keyword monitors with assertions). */
    assertions: z.array(AssertionResultSchema).optional(),
    /** The phases measured; null for checks that measure none (heartbeat). */
    timings: CheckTimingsSchema.nullable().optional(),
    ...CHECK_DETAILS,
    /** The location that ran the check (extension); null for checks recorded before locations. */
    location: z.string().nullable().optional(),
  })
  .meta({ id: "Heartbeat" });
export type Heartbeat = z.infer<typeof HeartbeatSchema>;

/** Query of `GET …/heartbeats`: `hours` 1..720, default 24. */
export const HeartbeatsQuerySchema = z.strictObject({
  hours: queryInt(1, 720, 24),
});

/** The longest window of `GET …/stats`, in UTC days (the server keeps heartbeats this long). */
export const STATS_MAX_DAYS = 90;

/** Query of `GET …/stats`: `days` 1..{@link STATS_MAX_DAYS}, default 30. */
export const StatsQuerySchema = z.strictObject({
  days: queryInt(1, STATS_MAX_DAYS, 30),
});

/** One location's share of a monitor's stats, and its state now. */
export const LocationStatsSchema = z
  .object({
    location: z.string(),
    checks: z.int(),
    up_checks: z.int(),
    down_checks: z.int(),
    uptime_pct: z.number().nullable(),
    avg_response_ms: z.number().nullable(),
    /** The location's own health (its confirmations counted): `pending` until its first check. */
    health: z.enum(["pending", "up", "down"]),
    /** Whether a live checker serves the location now (the built-in checker, or an agent in contact). */
    live: z.boolean(),
    last_checked_at: Timestamp.nullable(),
  })
  .meta({ id: "LocationStats" });
export type LocationStats = z.infer<typeof LocationStatsSchema>;

/** Stats of a monitor over `days` days, with a UTC daily breakdown. */
export const StatsSchema = z
  .object({
    monitor_id: z.string(),
    from: Timestamp,
    to: Timestamp,
    checks: z.int(),
    up_checks: z.int(),
    down_checks: z.int(),
    /** Checks slower than `degraded_response_ms`: counted in `up_checks` too. */
    degraded_checks: z.int().optional(),
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
    /** The same window by location (extension): each of the monitor's locations, and any other that recorded checks in it. */
    locations: z.array(LocationStatsSchema).optional(),
  })
  .meta({ id: "Stats" });
export type Stats = z.infer<typeof StatsSchema>;
