import type { IncomingHttpHeaders } from "node:http";

/** Lets one request go; call the returned function with the answer's headers and status (none on a network error). */
export type Release = (headers?: IncomingHttpHeaders, status?: number) => void;

type Throttle = <T>(fn: () => Promise<T>) => Promise<T>;

/** How a budget is set up: see `RateBudget`. */
export interface RateBudgetOptions {
  /** Fixed pacing for a server that sends no `X-RateLimit-*` headers. */
  fallback: () => Promise<Throttle>;
  /** The wait after a 429 that names no reset (nor `Retry-After`), given the refusals in a row. */
  blindWait: (refusals: number) => number;
  /** Where a long wait is announced (once per wait); never given the key. */
  notify: (message: string) => void;
  /** The service, as the announcement names it (its base URL). */
  label: string;
}

/** How one request waits for its turn. */
export interface AcquireOptions {
  /** When to stop waiting (ms since the epoch): `acquire` then rejects with a `RateLimitTimeout`. */
  deadline?: number;
  /** A request the server refused goes back to the head of the queue: it has waited longest. */
  retry?: boolean;
}

/** The deadline of a request passed while it waited for the rate limit. */
export class RateLimitTimeout extends Error {
  constructor(readonly resetInMs: number) {
    super(
      `the API's rate limit was still spent at the request's deadline (it reopens in ${Math.ceil(resetInMs / 1000)} s)`,
    );
    this.name = "RateLimitTimeout";
  }
}

/**
 * How much of what a window has left may be in flight from this process when someone else also
 * spends the key. A report is already stale by what the others had in flight when it was written,
 * so two processes that each keep a quarter in flight stay within what the server still admits.
 */
const SHARED_SHARE = 0.25;
/** `X-RateLimit-Reset` is whole seconds, rounded up: reports of one window differ by up to this. */
const RESET_ROUNDING_MS = 1000;
/** A wait for the window at least this long is announced to the user. */
const NOTICE_AFTER_MS = 5000;

const header = (headers: IncomingHttpHeaders, name: string): number | undefined => {
  const raw = headers[name];
  const n = Number(Array.isArray(raw) ? raw[0] : raw);
  return raw === undefined || !Number.isFinite(n) || n < 0 ? undefined : n;
};

interface Waiter {
  go: () => void;
  timer?: NodeJS.Timeout;
}

/**
 * The request budget of one API key in this process. It follows the server's
 * `X-RateLimit-Limit/Remaining/Reset` headers: it spends what the window still has and waits only
 * when the server says the window is spent, until the reset. Until the first answer one request
 * goes alone, to learn whether the server sends the headers; a server without them gets fixed
 * pacing (`fallback`). In each window the requests in flight grow from one, doubling per round
 * trip; when the window drains faster than this process spends it (another pipeline on the same
 * key), it keeps at most a quarter of what is left in flight.
 *
 * A 429 moves the whole budget to the reset it names: every request of the key then waits in one
 * queue (first come, first served; refused requests first) instead of each retrying on its own.
 * Each change of mind starts a new generation: an answer to a request sent in the current one is
 * the truth now, while an older answer counts only if it tells of the same window or a later one.
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
  private generation = 0;
  /** 429s in a row, for the wait after one that names no reset. */
  private refusals = 0;
  /** The reset that the last announcement was about. */
  private announced = 0;
  private readonly waiting: Waiter[] = [];
  private timer: NodeJS.Timeout | undefined;
  private timerAt = 0;

  constructor(private readonly options: RateBudgetOptions) {}

  /** Waits until a request may go, and returns the function to call with its answer. */
  async acquire(options: AcquireOptions = {}): Promise<Release> {
    // First come, first served: a newcomer never overtakes a waiting request.
    if (this.waiting.length === 0 && this.allowance() > this.inFlight) this.inFlight++;
    else await this.queue(options); // pump() counts it in flight
    if (this.mode === "fallback") await (await this.options.fallback())(async () => undefined);
    const sent = this.generation;
    let released = false;
    return (headers, status = 200) => {
      if (released) return;
      released = true;
      this.inFlight--;
      if (headers) this.report(headers, status, sent);
      this.pump();
    };
  }

  /** What the budget believes now (for tests and diagnostics). */
  snapshot(): {
    mode: string;
    limit: number;
    remaining: number;
    resetInMs: number;
    shared: boolean;
    inFlight: number;
    waiting: number;
  } {
    const resetInMs = Math.max(0, this.resetAt - Date.now());
    const { mode, limit, remaining, shared, inFlight } = this;
    return { mode, limit, remaining, resetInMs, shared, inFlight, waiting: this.waiting.length };
  }

  private queue({ deadline, retry }: AcquireOptions): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        go: () => {
          clearTimeout(waiter.timer);
          resolve();
        },
      };
      if (deadline !== undefined) {
        waiter.timer = setTimeout(
          () => {
            const at = this.waiting.indexOf(waiter);
            if (at >= 0) this.waiting.splice(at, 1);
            reject(new RateLimitTimeout(Math.max(0, this.resetAt - Date.now())));
          },
          Math.max(0, deadline - Date.now()),
        );
      }
      if (retry) this.waiting.unshift(waiter);
      else this.waiting.push(waiter);
      this.scheduleReset();
    });
  }

  /** How many requests may be in flight at once right now. */
  private allowance(): number {
    const open = Date.now() >= this.resetAt;
    if (this.mode === "unknown") return 1;
    if (this.mode === "fallback") return open ? Number.POSITIVE_INFINITY : 0;
    // A window whose reset has passed is fresh but unknown: one request learns what is left.
    if (open) return 1;
    const share = this.shared ? Math.floor(this.remaining * SHARED_SHARE) : this.remaining;
    // Slow start: each answer of this window admits one more in flight (doubling per round trip),
    // so a process sees another one spending the key before it puts the window in flight.
    return Math.min(share, Math.max(1, this.ownAnswered));
  }

  private report(headers: IncomingHttpHeaders, status: number, sent: number): void {
    const refused = status === 429;
    this.refusals = refused ? this.refusals + 1 : 0;
    const limit = header(headers, "x-ratelimit-limit");
    const remaining = header(headers, "x-ratelimit-remaining");
    const reset = header(headers, "retry-after") ?? header(headers, "x-ratelimit-reset");
    if (limit === undefined || remaining === undefined || reset === undefined) {
      // Only a server that never sent the headers is paced by the fallback; an answer without
      // them later on (a proxy's error page) teaches nothing but its own refusal.
      if (this.mode === "unknown") this.mode = "fallback";
      if (refused) this.spend(Date.now() + (reset ? reset * 1000 : this.options.blindWait(this.refusals)));
      return;
    }
    this.mode = "headers";
    const now = Date.now();
    const reportedResetAt = now + reset * 1000;
    const current = sent === this.generation;
    // An answer to a request sent before the budget last changed its mind may be of an earlier
    // window (sent before its reset, answered after): it teaches nothing.
    const earlier =
      !current &&
      (reportedResetAt < this.resetAt - RESET_ROUNDING_MS ||
        (now >= this.resetAt && reportedResetAt <= this.resetAt + RESET_ROUNDING_MS));
    if (earlier) return;
    this.limit = limit;
    if (refused) {
      // Whatever the budget believed, the window is spent now: everyone waits for this reset.
      this.spend(reportedResetAt);
    } else if (now >= this.resetAt || reportedResetAt > this.resetAt + RESET_ROUNDING_MS) {
      // A new window: keep whether the key was shared, so two pipelines start it carefully.
      this.remaining = remaining;
      this.resetAt = reportedResetAt;
      this.ownAnswered = 1;
      this.generation++;
    } else {
      // Answers arrive out of order; within one window what is left only goes down.
      this.remaining = Math.min(this.remaining, remaining);
      this.resetAt = Math.min(this.resetAt, reportedResetAt);
      this.ownAnswered++;
    }
    // Spent by others = counted by the server minus everything this process may have had counted.
    if (this.limit - this.remaining > this.ownAnswered + this.inFlight) this.shared = true;
  }

  /** The window is spent until `resetAt`: nothing goes before then. */
  private spend(resetAt: number): void {
    this.remaining = 0;
    this.resetAt = resetAt;
    this.ownAnswered = 0;
    this.generation++;
  }

  /** Lets waiting requests go while the allowance admits them; else wakes up at the reset. */
  private pump(): void {
    while (this.waiting.length > 0 && this.allowance() > this.inFlight) {
      this.inFlight++;
      (this.waiting.shift() as Waiter).go();
    }
    this.scheduleReset();
  }

  private scheduleReset(): void {
    if (this.waiting.length === 0) return;
    const now = Date.now();
    // A window already over is probed by the next request once the ones in flight have answered,
    // each answer pumps. With none in flight, wake up anyway: the allowance that queued a request
    // may have been judged a moment before the reset, and no answer would come to let it go.
    if (this.resetAt <= now && this.inFlight > 0) return;
    const wakeAt = Math.max(this.resetAt, now) + 5;
    // A reset that moved earlier (a 429 of a shorter wait) needs an earlier wake-up.
    if (this.timer && this.timerAt <= wakeAt) return;
    clearTimeout(this.timer);
    this.timerAt = wakeAt;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.pump();
    }, wakeAt - now);
    this.announce(this.resetAt - now);
  }

  /** Tells the user once per wait for the window (a long one), with the time left. */
  private announce(wait: number): void {
    // Requests held back by the slow start go as answers come in: that is no wait for the window.
    if (wait < NOTICE_AFTER_MS || this.allowance() > 0 || this.announced > this.resetAt - NOTICE_AFTER_MS) return;
    this.announced = this.resetAt;
    const limit = this.limit ? `its limit of ${this.limit} requests per window` : "its rate limit";
    this.options.notify(
      `uptime: the API at ${this.options.label} says this API key has used ${limit}; ` +
        `requests wait ${Math.ceil(wait / 1000)} s for it to reopen (waiting is not a failure).`,
    );
  }
}
