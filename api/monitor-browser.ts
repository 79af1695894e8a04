import { z } from "zod";
import { BROWSER_SCRIPT_LIMIT_BYTES } from "./browser-script";
import type { ErrorDetail } from "./common";
import { type FieldTable, nullableField } from "./field-table";

/**
 * Browser monitors (`type: "browser"`): a Playwright script (see browser-script.ts for its two
 * forms) run in a sandboxed Chromium. The one field of their own is `script`; the monitor's
 * `variables` are the script's `process.env` (secret, masked in what a run reports).
 */

/** The writable field of its own. */
export const monitorBrowserFields = {
  /** browser monitors: the Playwright script, at most {@link BROWSER_SCRIPT_LIMIT_BYTES}; it must parse. */
  script: z
    .string()
    .min(1, "must not be empty")
    .max(BROWSER_SCRIPT_LIMIT_BYTES, `must be at most ${BROWSER_SCRIPT_LIMIT_BYTES} characters`)
    .nullable(),
};

/** The field as stored and returned. */
export interface MonitorBrowserSpec {
  script: string | null;
}

/** Its default (monitors stored before it read so too). */
export const MONITOR_BROWSER_DEFAULTS: Readonly<MonitorBrowserSpec> = Object.freeze({ script: null });

/** The read schema (absent in answers of servers from before browser monitors). */
export const monitorBrowserRead = { script: z.string().nullable().optional() };

/** The field-table row (api/monitor.ts spreads it into `MONITOR_FIELDS`). */
export const MONITOR_BROWSER_ROWS = {
  /** browser monitors: the Playwright script (a Checkly browser check as is, or a body using `page` and `expect`); at most {@link BROWSER_SCRIPT_LIMIT_BYTES}. */
  script: nullableField(
    "script",
    "string",
    `browser monitors: the Playwright script — a Playwright Test file (\`test("…", async ({ page }) => …)\`, as a Checkly browser check) or a body using \`page\` and \`expect\`; at most ${BROWSER_SCRIPT_LIMIT_BYTES / 1024} KiB; see "Browser monitors".`,
  ),
} as const satisfies FieldTable;

/** A script on another type's monitor (browser monitors' own rules are in api/monitor-types/browser.ts). */
export function browserViolations(m: MonitorBrowserSpec & { type: string }): ErrorDetail[] {
  return m.type !== "browser" && m.script !== null
    ? [{ field: "script", message: `is only allowed for browser monitors, not ${m.type}` }]
    : [];
}

/**
 * Locations of a browser monitor that cannot run it: `runsBrowser` tells, per location, whether its
 * machine (the server's, or its agents') has Chromium and bubblewrap; unknown locations (no agent
 * has reported yet) are not judged here.
 */
export function browserLocationViolations(
  m: { locations: readonly string[] | null },
  runsBrowser: (location: string) => boolean | undefined,
  builtin?: string,
): ErrorDetail[] {
  const names = m.locations ?? (builtin ? [builtin] : []);
  return names
    .filter((name) => runsBrowser(name) === false)
    .map((name) => ({
      field: m.locations ? "locations" : "type",
      message: `location ${name} cannot run browser checks: its machine has no Chromium or bubblewrap (see "Browser checks")`,
    }));
}
