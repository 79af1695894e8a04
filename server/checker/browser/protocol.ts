/**
 * What the server hands a browser check's sandboxed runner (`launch.json` in its job folder when the
 * sandbox starts, `job.json` when its run begins, and a line on its standard input saying so) and
 * what the runner leaves there (`result.json`, `screenshot.png`). Nothing else crosses the boundary.
 */

/** How the runner starts its browser, before it has a job: the same for every run. Paths as the sandbox sees them. */
export interface BrowserLaunch {
  /** Chromium's executable inside the sandbox. */
  chromium: string;
  /** The policy proxy's Unix socket inside the sandbox (the server listens on it once the run begins). */
  proxy_socket: string;
  /** The V8 heap limit of each page, in MiB. */
  page_heap_mib: number;
  /**
   * Node's compile cache of the Playwright packages inside the sandbox (read-only in a run), or
   * null when there is none.
   */
  compile_cache: string | null;
  /**
   * Whether this sandbox only fills the compile cache: it loads the Playwright packages and exits,
   * with no browser, no job and no script.
   */
  warm: boolean;
}

/** The job of one run. */
export interface BrowserJob {
  /** The script's file name in the job folder (also its name in stack traces). */
  script_file: string;
  /** The monitor's `timeout_sec`, in ms. */
  timeout_ms: number;
  /** How long the script may run before the runner stops it and takes the screenshot. */
  script_budget_ms: number;
  /** Screenshots larger than this are dropped. */
  screenshot_limit_bytes: number;
  /** Whether certificate errors fail the run. */
  verify_tls: boolean;
  /** The script's `process.env`: the monitor's variables, nothing of the server's. */
  env: Record<string, string>;
}

/** One `test()` or `test.step()` of the script, in the order they ended. */
export interface BrowserStep {
  name: string;
  duration_ms: number;
  /** Why the step failed; null when it passed. */
  error: string | null;
}

/** What the runner found. */
export interface BrowserRunResult {
  up: boolean;
  error: string | null;
  /** The script ran out of its time (the runner stopped it). */
  timed_out: boolean;
  /** The script's line where it failed, and its text. */
  failing_line: { line: number; text: string } | null;
  /** The page's console errors and uncaught exceptions, in order. */
  console_errors: string[];
  steps: BrowserStep[];
  /** From the runner's start to the end of the script. */
  total_ms: number;
  /** Whether `screenshot.png` was written. */
  screenshot: boolean;
  /** The page's URL at the end. */
  url: string | null;
}
