import type { IncomingHttpHeaders } from "node:http";

/** Lets one request go; call the returned function with the answer's headers (none on a network error). */
export type Release = (headers?: IncomingHttpHeaders) => void;

type Throttle = <T>(fn: () => Promise<T>) => Promise<T>;

/**
 * How much of what a window has left may be in flight from this process when someone else also
 * spends the key. A report is already stale by what the others had in flight when it was written,
 * so two processes that each keep a quarter in flight stay within what the server still admits.
 */
const SHARED_SHARE = 0.25;
/** `X-RateLimit-Reset` is whole seconds, rounded up: reports of one window differ by up to this. */
const RESET_ROUNDING_MS = 1000;

const header = (headers: IncomingHttpHeaders, name: string): number | undefined => {
  const raw = headers[name];
  const n = Number(Array.isArray(raw) ? raw[0] : raw);
  return raw === undefined || !Number.isFinite(n) || n < 0 ? undefined : n;
};

/**
 * The request budget of one API key in this process. It follows the server's
 * `X-RateLimit-Limit/Remaining/Reset` headers: it spends what the window still has and waits only
 * when the server says the window is spent (or a 429 says so), until the reset. Until the first
 * answer one request goes alone, to learn whether the server sends the headers; a server without
 * them gets fixed pacing (`fallback`). In each window the requests in flight grow from one, doubling
 * per round trip; when the window drains faster than this process spends it (another pipeline on
 * the same key), it keeps at most a quarter of what is left in flight.
 */
export class RateBudget {
  private mode: "unknown" | "headers" | "fallback" = "unknown";
  private limit = 0;
  private remaining = 0;
  /** When the current window frees requests again (ms); 0 before the first report. */
  private resetAt = 0;
  /** Answers of this process counted in the current window. */
  private ownAnswered = 0;
  private shared = false;
  private inFlight = 0;
  private readonly waiting: (() => void)[] = [];
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly fallback: () => Promise<Throttle>) {}

  /** Waits until a request may go, and returns the function to call with its answer. */
  async acquire(): Promise<Release> {
    if (this.mode !== "fallback") {
      // First come, first served: a newcomer never overtakes a waiting request.
      if (this.waiting.length === 0 && this.allowance() > this.inFlight) this.inFlight++;
      else {
        const turn = new Promise<void>((resolve) => this.waiting.push(resolve)); // pump() counts it in flight
        this.scheduleReset();
        await turn;
      }
    } else {
      this.inFlight++;
    }
    if (this.mode === "fallback") await (await this.fallback())(async () => undefined);
    let released = false;
    return (headers) => {
      if (released) return;
      released = true;
      this.inFlight--;
      if (headers) this.report(headers);
      this.pump();
    };
  }

  /** What the budget believes now (for tests and diagnostics). */
  snapshot(): { mode: string; limit: number; remaining: number; resetInMs: number; shared: boolean; inFlight: number } {
    const resetInMs = Math.max(0, this.resetAt - Date.now());
    return { mode: this.mode, limit: this.limit, remaining: this.remaining, resetInMs, shared: this.shared, inFlight: this.inFlight };
  }

  /** How many requests may be in flight at once right now. */
  private allowance(): number {
    if (this.mode === "unknown") return 1;
    if (this.mode === "fallback") return Number.POSITIVE_INFINITY;
    // A window whose reset has passed is fresh but unknown: one request learns what is left.
    if (Date.now() >= this.resetAt) return 1;
    const share = this.shared ? Math.floor(this.remaining * SHARED_SHARE) : this.remaining;
    // Slow start: each answer of this window admits one more in flight (doubling per round trip),
    // so a process sees another one spending the key before it puts the window in flight.
    return Math.min(share, Math.max(1, this.ownAnswered));
  }

  private report(headers: IncomingHttpHeaders): void {
    const limit = header(headers, "x-ratelimit-limit");
    const remaining = header(headers, "x-ratelimit-remaining");
    const reset = header(headers, "retry-after") ?? header(headers, "x-ratelimit-reset");
    if (limit === undefined || remaining === undefined || reset === undefined) {
      // Only a server that never sent the headers is paced by the fallback; an answer without
      // them later on (a proxy's error page) teaches nothing.
      if (this.mode === "unknown") this.mode = "fallback";
      return;
    }
    this.mode = "headers";
    const now = Date.now();
    const reportedResetAt = now + reset * 1000;
    // An answer of an earlier window (sent before its reset, answered after) teaches nothing.
    if (reportedResetAt < this.resetAt - RESET_ROUNDING_MS && now < this.resetAt) return;
    if (now >= this.resetAt || reportedResetAt > this.resetAt + RESET_ROUNDING_MS) {
      // A new window: keep whether the key was shared, so two pipelines start it carefully.
      this.limit = limit;
      this.remaining = remaining;
      this.resetAt = reportedResetAt;
      this.ownAnswered = 1;
    } else {
      // Answers arrive out of order; within one window what is left only goes down.
      this.remaining = Math.min(this.remaining, remaining);
      this.resetAt = Math.min(this.resetAt, reportedResetAt);
      this.ownAnswered++;
    }
    // Spent by others = counted by the server minus everything this process may have had counted.
    if (this.limit - this.remaining > this.ownAnswered + this.inFlight) this.shared = true;
  }

  /** Lets waiting requests go while the allowance admits them; else wakes up at the reset. */
  private pump(): void {
    while (this.waiting.length > 0 && this.allowance() > this.inFlight) {
      this.inFlight++;
      (this.waiting.shift() as () => void)();
    }
    this.scheduleReset();
  }

  private scheduleReset(): void {
    // A window already over is probed by the next request once the ones in flight have answered.
    const wait = this.resetAt - Date.now();
    if (this.timer || this.waiting.length === 0 || this.mode !== "headers" || wait <= 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, wait + 5);
  }
}
