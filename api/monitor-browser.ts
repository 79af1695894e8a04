import { z } from "zod";
import { BROWSER_SCRIPT_LIMIT_BYTES } from "./browser-script";
import type { ErrorDetail } from "./common";
import { type OwnFieldValue, ownStringField } from "./own-field";

/**
 * Browser monitors (`type: "browser"`): a Playwright script (see browser-script.ts for its two
 * forms) run in a sandboxed Chromium. The one field of their own is `script`; the monitor's
 * `variables` are the script's `process.env` (secret, masked in what a run reports).
 */

/** The field of its own, in each form it is read in. */
export const BROWSER_SCRIPT_FIELD = ownStringField({
  api: "script",
  property: "script",
  type: "browser",
  write: z
    .string()
    .min(1, "must not be empty")
    .max(BROWSER_SCRIPT_LIMIT_BYTES, `must be at most ${BROWSER_SCRIPT_LIMIT_BYTES} characters`),
  description: `browser monitors: the Playwright script — a Playwright Test file (\`test("…", async ({ page }) => …)\`, as a Checkly browser check) or a body using \`page\` and \`expect\`; at most ${BROWSER_SCRIPT_LIMIT_BYTES / 1024} KiB; see "Browser monitors".`,
});

/** The field as stored and returned. */
export type MonitorBrowserSpec = OwnFieldValue<typeof BROWSER_SCRIPT_FIELD>;

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
