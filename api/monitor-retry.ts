import { z } from "zod";
import type { ErrorDetail } from "./common";
import type { FieldTable } from "./field-table";

/**
 * Retry strategies, on every probed monitor type: a failed check is tried again within the same
 * run (at the location whose check failed, or with `location: "other"` at the monitor's other
 * locations in turn), after a fixed, linearly or exponentially growing delay, at most
 * `retries` times and within `duration` seconds. The run records every attempt and counts once,
 * with its last attempt's result: channels hear only of that, and `confirmations` still count
 * consecutive failed runs.
 */

/** How the delay before each retry grows. */
export const RETRY_STRATEGIES = ["none", "fixed", "linear", "exponential"] as const;
export type RetryStrategyName = (typeof RETRY_STRATEGIES)[number];

/** What failures are retried: any, or only network errors (DNS, connect, TLS, timeout). */
export const RETRY_TRIGGERS = ["failure", "network"] as const;

/** Where retries run: at the location whose check failed, or at the monitor's other locations in turn. */
export const RETRY_LOCATIONS = ["same", "other"] as const;

/** The failure classes that are network errors. */
export const NETWORK_ERROR_CLASSES: readonly string[] = ["dns", "connect", "tls", "timeout"];

/** At most this many retries per run. */
export const MAX_RETRIES = 5;
/** A run with retries lasts at most this long. */
export const MAX_RETRY_DURATION_SEC = 600;

/** A monitor's retry strategy, as written. */
export const RetryStrategySchema = z
  .strictObject({
    /** `none`, `fixed` (every retry after `delay`), `linear` (`delay` × n) or `exponential` (`delay` × 2^(n−1)). */
    strategy: z.enum(RETRY_STRATEGIES),
    /** The base delay in ms, 0..60000; default 1000. */
    delay: z
      .int("must be a whole number of milliseconds")
      .min(0, "must be between 0 and 60000")
      .max(60_000, "must be between 0 and 60000")
      .optional(),
    /** Retries at most, 1..5; default 2. */
    retries: z
      .int("must be a whole number")
      .min(1, `must be between 1 and ${MAX_RETRIES}`)
      .max(MAX_RETRIES, `must be between 1 and ${MAX_RETRIES}`)
      .optional(),
    /** Seconds the run may last with its retries, 1..600; default 60. A run also ends before the next is due (`interval_sec`). */
    duration: z
      .int("must be a whole number of seconds")
      .min(1, `must be between 1 and ${MAX_RETRY_DURATION_SEC}`)
      .max(MAX_RETRY_DURATION_SEC, `must be between 1 and ${MAX_RETRY_DURATION_SEC}`)
      .optional(),
    /** `failure` (default): retry any failure; `network`: only DNS, connect, TLS and timeout errors, not assertions or statuses. */
    trigger: z.enum(RETRY_TRIGGERS).optional(),
    /**
     * `same` (default): retries run where the check failed; `other`: each retry runs at the next of
     * the monitor's other live locations (the failing one when none is live). Needs 2 or more locations.
     */
    location: z.enum(RETRY_LOCATIONS).optional(),
  })
  .meta({ id: "RetryStrategy" });

/** A retry strategy as stored and returned: every field present. */
export interface StoredRetry {
  strategy: RetryStrategyName;
  delay: number;
  retries: number;
  duration: number;
  trigger: (typeof RETRY_TRIGGERS)[number];
  /** Absent in rows stored before the field: `same`. */
  location?: (typeof RETRY_LOCATIONS)[number];
}

/** A retry strategy as a program declares it. */
export type RetryStrategy = z.input<typeof RetryStrategySchema>;

/** The writable field. */
export const monitorRetryFields = {
  /** Retries within a run; null (default): none. */
  retry: RetryStrategySchema.nullable(),
};

/** The read schema (absent from servers without retry strategies). */
export const monitorRetryRead = {
  retry: z
    .object({
      strategy: z.enum(RETRY_STRATEGIES),
      delay: z.int(),
      retries: z.int(),
      duration: z.int(),
      trigger: z.enum(RETRY_TRIGGERS),
      location: z.enum(RETRY_LOCATIONS).optional(),
    })
    .meta({ id: "StoredRetryStrategy" })
    .nullable()
    .optional(),
};

/** As the server stores it. */
export interface MonitorRetrySpec {
  retry: StoredRetry | null;
}

/** Default: no retries. */
export const MONITOR_RETRY_DEFAULTS: Readonly<MonitorRetrySpec> = Object.freeze({ retry: null });

/** The row of the monitor's field table. */
export const MONITOR_RETRY_ROWS = {
  /** Retries of a failed check within the run (`fixed`, `linear`, `exponential`); alerts come only from the last attempt. Default none. */
  retry: {
    api: "retry",
    type: {
      type: "object",
      ref: "RetryStrategy",
      nullable: true,
      description:
        "How a failed check is tried again within the run: where it failed, or at the monitor's other locations.",
      properties: {
        strategy: {
          type: "string",
          enum: RETRY_STRATEGIES,
          description: "`none`, `fixed`, `linear` (delay × n) or `exponential` (delay × 2^(n−1)).",
        },
        delay: { type: "integer", description: "The base delay in ms, 0..60000; default 1000." },
        retries: { type: "integer", description: `Retries at most, 1..${MAX_RETRIES}; default 2.` },
        duration: {
          type: "integer",
          description: `Seconds the run may last with its retries, 1..${MAX_RETRY_DURATION_SEC}; default 60; never past the next run (\`intervalSec\`).`,
        },
        trigger: {
          type: "string",
          enum: RETRY_TRIGGERS,
          description: "`failure`: retry any failure (default); `network`: only DNS, connect, TLS and timeout errors.",
        },
        location: {
          type: "string",
          enum: RETRY_LOCATIONS,
          description:
            "`same`: retries run where the check failed (default); `other`: each at the next of the monitor's other live locations. `other` needs 2 or more locations.",
        },
      },
      requiredProperties: ["strategy"],
    },
    normal: "retry",
    description:
      "Retries of a failed check within the run; every attempt is recorded, alerts come from the last; none by default.",
    default: null,
  },
} as const satisfies FieldTable;

/** The stored form: defaults filled in; other values as they are. */
export function normalizeRetry(value: unknown): unknown {
  if (!value || typeof value !== "object" || Array.isArray(value)) return value;
  const r = value as Record<string, unknown>;
  return {
    strategy: r.strategy,
    delay: r.delay ?? 1000,
    retries: r.retries ?? 2,
    duration: r.duration ?? 60,
    trigger: r.trigger ?? "failure",
    location: r.location ?? "same",
  };
}

/** Rules of the field on the whole monitor: not for heartbeat monitors; retries elsewhere need somewhere else. */
export function retryViolations(m: MonitorRetrySpec & { type: string; locations: string[] | null }): ErrorDetail[] {
  if (m.retry !== null && m.type === "heartbeat")
    return [{ field: "retry", message: "is not allowed for heartbeat monitors (they are pinged, not probed)" }];
  const count = m.locations?.length ?? 1;
  if (m.retry?.location === "other" && count < 2) {
    return [
      {
        field: "retry.location",
        message: `"other" needs 2 or more locations (the monitor has ${count}); use "same", or add locations`,
      },
    ];
  }
  return [];
}

/** Whether retries of this strategy run at the monitor's other locations (not where the check failed). */
export function retriesElsewhere(r: StoredRetry | null | undefined): boolean {
  return r?.location === "other" && r.strategy !== "none";
}

/** The delay before retry `n` (1 for the first), in ms. */
export function retryDelayMs(r: StoredRetry, n: number): number {
  if (r.strategy === "linear") return r.delay * n;
  if (r.strategy === "exponential") return r.delay * 2 ** (n - 1);
  return r.delay;
}
