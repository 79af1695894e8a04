import { z } from "zod";
import { BrowserEvidenceSchema } from "./browser-evidence";
import {
  AssertionResultSchema,
  CheckAttemptSchema,
  CheckTimingsSchema,
  ERROR_CLASSES,
  StepResultSchema,
} from "./heartbeat";
import { MonitorSchema } from "./monitor";

/**
 * The agent API (`/api/v1/agent/…`, agent keys only): an agent of a location leases the checks
 * due there, runs them, and posts their results. A check is named by its `check_key`
 * (`<monitor>/<location>/<due ms>`): posting the same check twice records it once.
 */

/** The id an agent process sends: stable for the process, unique among the location's agents. */
export const AgentIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.:-]{1,100}$/, "must be 1 to 100 letters, digits or _ . : -");

/** `POST /api/v1/agent/leases`. */
export const LeaseRequestSchema = z.strictObject({
  agent_id: AgentIdSchema,
  /** Most checks to lease at once. */
  max: z
    .int("must be a whole number")
    .min(1, "must be between 1 and 1000")
    .max(1000, "must be between 1 and 1000")
    .default(100),
  /** With nothing due, wait up to this long (ms) for a check to fall due before answering. */
  wait_ms: z
    .int("must be a whole number")
    .min(0, "must be between 0 and 30000")
    .max(30_000, "must be between 0 and 30000")
    .default(0),
  /**
   * The agent's outbound policy: whether it may reach private addresses (`--allow-private-targets`).
   * The server judges the targets of its location's monitors by it. Absent: not told (older agents).
   */
  allow_private_targets: z.boolean().optional(),
  /** Whether the agent's machine can run browser checks (Chromium and bubblewrap found). Absent: not told. */
  browser: z.boolean().optional(),
});

/** One leased check: the monitor as it is now, when it was due, and until when the lease holds. */
export const LeaseSchema = z
  .object({
    check_key: z.string(),
    due_at: z.iso.datetime(),
    expires_at: z.iso.datetime(),
    /** The whole monitor, its secrets (headers, body, URL) included: the agent runs the probe. */
    monitor: MonitorSchema,
  })
  .meta({ id: "Lease" });

/** The answer to a lease request. */
export const LeasesSchema = z
  .object({
    location: z.string(),
    /** How long each lease holds (ms); an unanswered lease then goes to another agent. */
    lease_ms: z.int(),
    leases: z.array(LeaseSchema),
  })
  .meta({ id: "Leases" });

/** What a check found, as an agent posts it. */
export const CheckOutcomeSchema = z
  .strictObject({
    up: z.boolean(),
    response_time_ms: z.int().min(0).nullable(),
    status_code: z.int().min(100).max(999).nullable(),
    error: z.string().max(2000).nullable(),
    cert_expires_at: z.iso.datetime().nullable().optional(),
    degraded: z.boolean().optional(),
    error_class: z.enum(ERROR_CLASSES).nullable().optional(),
    assertions: z.array(AssertionResultSchema).max(50).optional(),
    timings: CheckTimingsSchema.nullable().optional(),
    steps: z.array(StepResultSchema).max(10).optional(),
    attempts: z.array(CheckAttemptSchema).max(6).optional(),
    /** browser monitors: the run's evidence. */
    browser: BrowserEvidenceSchema.optional(),
    /** browser monitors: the failed run's screenshot, a base64 PNG of at most 1 MiB. */
    screenshot_png: z.string().max(1_398_104).nullable().optional(),
  })
  .meta({ id: "CheckOutcome" });

/** `POST /api/v1/agent/results`. */
export const ResultsRequestSchema = z.strictObject({
  agent_id: AgentIdSchema,
  results: z
    .array(
      z.strictObject({
        check_key: z.string().min(1).max(200),
        /** When the agent started the check (the scheduler's lag is measured from the due time to it). */
        started_at: z.iso.datetime(),
        /** When the check ended: the heartbeat's time. */
        checked_at: z.iso.datetime(),
        outcome: CheckOutcomeSchema,
      }),
    )
    .min(1, "must carry at least one result")
    .max(1000, "must carry at most 1000 results"),
});

/** What became of each posted result: recorded now, recorded before (a repeat), or refused and why. */
export const ResultStatusSchema = z
  .object({
    check_key: z.string(),
    status: z.enum(["recorded", "duplicate", "refused"]),
    /** Why a result was refused: the monitor was deleted, paused or moved off this location, or the key is not this location's. */
    reason: z.string().optional(),
  })
  .meta({ id: "ResultStatus" });

export const ResultsSchema = z.object({ results: z.array(ResultStatusSchema) }).meta({ id: "Results" });

export type LeaseRequest = z.output<typeof LeaseRequestSchema>;
export type Lease = z.infer<typeof LeaseSchema>;
export type Leases = z.infer<typeof LeasesSchema>;
export type ResultsRequest = z.output<typeof ResultsRequestSchema>;
export type ResultStatus = z.infer<typeof ResultStatusSchema>;
