import { z } from "zod";

/** The most a run's evidence keeps: the server cuts what the runner reports to these. */
export const BROWSER_EVIDENCE_LIMITS = {
  /** Console errors kept, and steps. */
  entries: 50,
  /** Characters of each console error, step error and the failing line's text. */
  text: 500,
  /** Characters of a step's name. */
  stepName: 200,
  /** Characters of the page's URL. */
  url: 2048,
} as const;

/** What a browser monitor's run leaves in its heartbeat: its evidence when it fails, its timings always. */
export const BrowserEvidenceSchema = z
  .object({
    /** The script's line that failed (1-based) and its text; null when up or when no line is known. */
    failing_line: z.object({ line: z.int(), text: z.string() }).nullable(),
    /** The page's console errors and uncaught exceptions, in order (at most {@link BROWSER_EVIDENCE_LIMITS}). */
    console_errors: z.array(z.string()),
    /** Each `test()` and `test.step()` of the script, in the order they ended, with its time. */
    steps: z.array(z.object({ name: z.string(), duration_ms: z.int(), error: z.string().nullable() })),
    /** The page's URL at the end of the run. */
    url: z.string().nullable(),
    /** Destinations the outbound policy refused. */
    refused: z.array(z.string()),
    /** Why the sandbox killed the run (a limit, the timeout); null when it ended by itself. */
    killed: z.string().nullable(),
    /** Whether a screenshot was kept: `GET /api/v1/monitors/{id}/heartbeats/{heartbeat}/screenshot`. */
    screenshot: z.boolean(),
  })
  .meta({ id: "BrowserEvidence" });
export type BrowserEvidence = z.infer<typeof BrowserEvidenceSchema>;
