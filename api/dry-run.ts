import { z } from "zod";
import { AssertionResultSchema, CHECK_DETAILS, CheckTimingsSchema, ERROR_CLASSES } from "./heartbeat";
import { LOCATION_NAME, LOCATION_NAME_RULE } from "./monitor-locations";

/**
 * The dry run of a monitor (extension): one check, run now, stored nowhere. Its input is a monitor
 * spec (the body of a create, validated exactly as one) or an existing monitor's id (the path).
 */

/** At most this many dry runs of one API key run at once; one more is a 429 `rate_limited`. */
export const DRY_RUN_CONCURRENCY = 4;

/** What `status` of a dry run reads when there was nothing to run (heartbeat monitors). */
export const NOTHING_TO_RUN = "nothing_to_run" as const;

/** Query of both dry runs. */
export const DryRunQuerySchema = z.strictObject({
  /**
   * Run the check at this location: the built-in checker's runs it in the server; an agent
   * location hands it to one of its live agents and answers with what the agent found. Default:
   * the server's built-in checker.
   */
  location: z.string().regex(LOCATION_NAME, LOCATION_NAME_RULE).optional().meta({
    description:
      "Run the check at this checker location (an agent location: a live agent of it runs it); default the built-in checker.",
  }),
});

export type DryRunQuery = z.output<typeof DryRunQuerySchema>;

/** The answer of a dry run: what a stored check would record, without the stored check. */
export const MonitorTestResultSchema = z
  .object({
    /**
     * `up`, `degraded` (up, but slower than `degraded_response_ms`), `down`, or `nothing_to_run`
     * for heartbeat monitors, which the service does not probe: their jobs ping it.
     */
    status: z.enum(["up", "degraded", "down", NOTHING_TO_RUN]),
    /** When the check ran. */
    checked_at: z.iso.datetime(),
    /** Why there was nothing to run, or why the check failed; null when it passed. */
    error: z.string().nullable(),
    /** The class of the failure: `dns`, `connect`, `tls`, `timeout`, `http` or `assertion`; null when up. */
    error_class: z.enum(ERROR_CLASSES).nullable(),
    response_time_ms: z.int().nullable(),
    status_code: z.int().nullable(),
    /** Each assertion's outcome, in order. */
    assertions: z.array(AssertionResultSchema),
    /** The phases measured; null when nothing ran. */
    timings: CheckTimingsSchema.nullable(),
    /** https monitors with `ssl_expiry_days`: when the certificate expires. */
    cert_expires_at: z.iso.datetime().nullable(),
    /** https monitors with `ssl_expiry_days`: whole days until the certificate expires. */
    cert_days_left: z.int().nullable(),
    ...CHECK_DETAILS,
    /** browser monitors: the screenshot of a failed run, a base64 PNG (a dry run stores nothing). */
    screenshot_png: z.string().nullable().optional(),
  })
  .meta({ id: "MonitorTestResult" });

/** The answer of a dry run. */
export type MonitorTestResult = z.infer<typeof MonitorTestResultSchema>;

/** The first failed assertion of a result in words (`json_body $.status equals "ok": found "down"`), if any. */
export function failedAssertion(result: Pick<MonitorTestResult, "assertions">): string | null {
  const failed = result.assertions.find((a) => !a.pass);
  if (!failed) return null;
  const subject = [
    failed.source,
    failed.property,
    failed.comparison,
    failed.target === null ? null : JSON.stringify(failed.target),
  ]
    .filter((p) => p !== null)
    .join(" ");
  return `${subject}: ${failed.reason ?? `found ${failed.actual === null ? "nothing" : JSON.stringify(failed.actual.slice(0, 80))}`}`;
}
