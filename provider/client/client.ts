import { randomUUID } from "node:crypto";
import type { Agent, Dispatcher } from "undici";
import { LIST_LIMIT_MAX } from "../../api";
import type { Connection } from "./connection";
import { currentDeadline, type Deadline, timedOut, waitWithin } from "./deadline";
import { UptimeApiError } from "./errors";
import { RateBudget, RateLimitTimeout } from "./rate-budget";
import { undici } from "./undici";

/** Options of a client; the defaults suit a large `pulumi up`. */
export interface ClientOptions {
  /**
   * Retries after the first attempt, for 5xx and network errors of safe requests. A 429 is not
   * counted: it is waited out until the request's deadline.
   */
  maxRetries?: number;
  /**
   * Retries after a refused connection (ECONNREFUSED: nothing listens at the URL), each after
   * `baseDelayMs` times its number. A wrong `baseUrl` or a stopped service then fails within about
   * a second instead of the full backoff; a service that is restarting is met by the second try.
   * They count against `maxRetries` too. Default 2.
   */
  maxRefusedRetries?: number;
  /** First backoff step; each retry doubles it (full jitter), up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Per-request timeout. */
  timeoutMs?: number;
  /**
   * Pacing per API key for a server that sends no `X-RateLimit-*` headers, kept below the service's
   * 600 requests per minute. A server that sends them is followed instead (see rate-budget.ts).
   */
  requestsPerMinute?: number;
  /**
   * How long a request may wait for the API key's rate limit when no deadline is given (by
   * `RequestOptions.deadline` or the resource's `customTimeouts`): 20 minutes by default.
   */
  rateLimitTimeoutMs?: number;
  /** Where a long wait for the rate limit is announced (once per wait; never with the key). Default: stderr. */
  notify?: (message: string) => void;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Sent as `Idempotency-Key`; makes a POST safe to retry. */
  idempotencyKey?: string;
  /** A POST that is safe to repeat without a key (pause, resume): retried like a GET. */
  idempotent?: boolean;
  /** The answer is a JSON document without the API's envelope (the OpenAPI document). */
  raw?: boolean;
  /**
   * When to give up waiting for the rate limit (ms since the epoch). Default: the end of the
   * resource's `customTimeouts` (see deadline.ts), else `rateLimitTimeoutMs` from now.
   */
  deadline?: number;
}

/** The answer of one call. */
export interface ApiResult<T> {
  data: T;
  nextCursor?: string | null;
  /** The server replayed the first answer to this `Idempotency-Key` (`Idempotent-Replayed: true`). */
  replayed?: boolean;
}

const SAFE_METHODS = new Set(["GET", "HEAD", "PUT", "PATCH", "DELETE"]);
const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);
const NETWORK_CODES = new Set([
  "ECONNRESET",
  "ECONNREFUSED",
  "ETIMEDOUT",
  "EPIPE",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT_TIMEOUT",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
]);

let sharedAgent: Agent | undefined;
/** One connection pool per process, shared by every resource. */
function agent(): Dispatcher {
  sharedAgent ??= new (undici().Agent)({ keepAliveTimeout: 10_000, connections: 16 });
  return sharedAgent;
}

type Throttle = <T>(fn: () => Promise<T>) => Promise<T>;
const budgets = new Map<string, RateBudget>();

/**
 * One budget per service and API key in this process (the service counts per key). It follows the
 * server's rate-limit headers; a server without them is paced at `perMinute` (p-throttle).
 */
function budgetFor(
  connection: Connection,
  options: Required<ClientOptions>,
  blindWait: (refusals: number) => number,
): RateBudget {
  const id = `${connection.baseUrl}\n${connection.apiKey}`;
  let budget = budgets.get(id);
  if (!budget) {
    let throttle: Promise<Throttle> | undefined;
    const fallback = () => {
      throttle ??= import("p-throttle").then(({ default: pThrottle }) => {
        const perSecond = Math.max(1, Math.floor(options.requestsPerMinute / 60));
        return pThrottle({ limit: perSecond, interval: 1000, strict: true })((fn: () => Promise<unknown>) =>
          fn(),
        ) as Throttle;
      });
      return throttle;
    };
    budget = new RateBudget({ fallback, blindWait, notify: options.notify, label: connection.baseUrl });
    budgets.set(id, budget);
  }
  return budget;
}

/** Under the Pulumi engine a provider's stderr is shown in the CLI's diagnostics. */
const toStderr = (message: string) => void process.stderr.write(`${message}\n`);

/** A 409 because the first request with this Idempotency-Key is still running: worth a retry. */
function keyInProgress(status: number, text: string): boolean {
  if (status !== 409) return false;
  try {
    const details = (JSON.parse(text) as { error?: { details?: { field?: string }[] } }).error?.details ?? [];
    return details.some((d) => d.field === "Idempotency-Key");
  } catch {
    return false;
  }
}

/**
 * The API client: one `request()` core under thin calls. Safe requests (and POSTs with an
 * Idempotency-Key) are retried on 5xx and network errors with jittered exponential backoff. A 429
 * is waited out with every other request of the key until `Retry-After` / `X-RateLimit-Reset`, for
 * as long as the request's deadline allows. Errors carry the API's code and request id.
 */
export class UptimeClient {
  private readonly options: Required<ClientOptions>;
  /**
   * Changes whenever a write (any method but GET/HEAD) starts or ends: what was read before may be
   * stale once it moved (see bulk-read.ts).
   */
  writes = 0;

  constructor(
    readonly connection: Connection,
    options: ClientOptions = {},
  ) {
    this.options = {
      maxRetries: options.maxRetries ?? 10,
      maxRefusedRetries: options.maxRefusedRetries ?? 2,
      baseDelayMs: options.baseDelayMs ?? 250,
      maxDelayMs: options.maxDelayMs ?? 15_000,
      timeoutMs: options.timeoutMs ?? 30_000,
      requestsPerMinute: options.requestsPerMinute ?? 540,
      rateLimitTimeoutMs: options.rateLimitTimeoutMs ?? 20 * 60_000,
      notify: options.notify ?? toStderr,
    };
    for (const [name, value] of Object.entries(this.options)) {
      if (typeof value === "function") continue;
      if (!Number.isFinite(value) || value < 0) throw new TypeError(`ClientOptions.${name} must be a number >= 0`);
    }
  }

  /**
   * The milliseconds per request that the key's rate-limit window affords for the rest of it: what
   * is left of the window over the requests it still admits. 0 while the server has not said (or
   * sends no rate-limit headers).
   */
  pace(): number {
    const { mode, remaining, resetInMs } = budgetFor(this.connection, this.options, (refusals) =>
      this.backoff(refusals),
    ).snapshot();
    if (mode !== "headers" || resetInMs === 0) return 0;
    return resetInMs / Math.max(1, remaining);
  }

  /**
   * Sends one API request. A 429 is waited out (the key's budget holds every request until the
   * reset the answer names) until the deadline; 5xx and network errors of safe requests are retried
   * `maxRetries` times.
   */
  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResult<T>> {
    const url = new URL(`${this.connection.baseUrl}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const retrySafe = SAFE_METHODS.has(method) || Boolean(opts.idempotencyKey) || opts.idempotent === true;
    const budget = budgetFor(this.connection, this.options, (refusals) => this.backoff(refusals));
    const started = Date.now();
    // The resource's customTimeouts, if any: every wait below ends when it is spent.
    const limit = currentDeadline();
    const deadline = opts.deadline ?? limit?.endsAt ?? started + this.options.rateLimitTimeoutMs;
    const call = `${method} ${url.pathname}`;
    let refused: Dispatcher.ResponseData | undefined;
    let sent = 0;
    let refusals = 0;
    for (let attempt = 0; ;) {
      const release = await budget.acquire({ deadline, retry: refused !== undefined }).catch((err: unknown) => {
        if (!(err instanceof RateLimitTimeout)) throw err;
        throw limit && opts.deadline === undefined
          ? timedOut(limit, `waiting for the API's rate limit before ${call}`, sent)
          : this.waitedOut(err, started, refused, sent);
      });
      sent++;
      const answer = await this.send(method, url, opts, release, limit);
      if (!("res" in answer)) {
        if (limit?.signal.aborted) throw timedOut(limit, `waiting for the answer to ${call}`, sent);
        const code = (answer.error as { code?: string }).code ?? "";
        const connRefused = code === "ECONNREFUSED";
        if (
          retrySafe &&
          NETWORK_CODES.has(code) &&
          attempt < this.options.maxRetries &&
          (!connRefused || refusals < this.options.maxRefusedRetries)
        ) {
          // Nothing listens there: a short, fixed wait (see maxRefusedRetries), not the backoff of a busy service.
          const wait = connRefused ? this.options.baseDelayMs * ++refusals : this.backoff(attempt);
          attempt++;
          await waitWithin(wait, `retrying ${call} after a network error`);
          continue;
        }
        throw new UptimeApiError("network_error", 0, `${call} failed: ${answer.error.message}`, [], undefined, sent);
      }
      const { res, text } = answer;
      // A 429 was refused before any work, so it is safe to retry whatever the method; waiting for
      // the window is not a failure, so it uses up no attempt.
      refused = res.statusCode === 429 ? res : undefined;
      if (refused) continue;
      const again = RETRY_STATUS.has(res.statusCode) && retrySafe;
      if (
        (again || (opts.idempotencyKey && keyInProgress(res.statusCode, text))) &&
        attempt < this.options.maxRetries
      ) {
        await waitWithin(this.backoff(attempt++), `retrying ${call} after HTTP ${res.statusCode}`);
        continue;
      }
      return this.parse<T>(res, text, sent, opts.raw);
    }
  }

  /** One attempt: the answer and its text, or the network error. */
  private async send(
    method: string,
    url: URL,
    opts: RequestOptions,
    release: (headers?: Dispatcher.ResponseData["headers"], status?: number) => void,
    limit: Deadline | undefined,
  ): Promise<{ res: Dispatcher.ResponseData; text: string } | { error: Error }> {
    const write = method !== "GET" && method !== "HEAD";
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.connection.apiKey}`,
      accept: "application/json",
      "user-agent": "pulumi-uptime",
    };
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    if (opts.idempotencyKey) headers["idempotency-key"] = opts.idempotencyKey;
    if (write) this.writes++;
    try {
      const res = await undici().request(url, {
        method: method as Dispatcher.HttpMethod,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        dispatcher: agent(),
        headersTimeout: this.options.timeoutMs,
        bodyTimeout: this.options.timeoutMs,
        signal: limit?.signal,
      });
      release(res.headers, res.statusCode);
      return { res, text: await res.body.text() };
    } catch (err) {
      release();
      return { error: err as Error };
    } finally {
      if (write) this.writes++;
    }
  }

  /** The error of a request whose deadline passed while it waited for the rate limit. */
  private waitedOut(
    err: RateLimitTimeout,
    started: number,
    refused: Dispatcher.ResponseData | undefined,
    sent: number,
  ): UptimeApiError {
    const waited = Math.round((Date.now() - started) / 1000);
    const requestId = refused?.headers["x-request-id"] as string | undefined;
    const reopens = Math.ceil(err.resetInMs / 1000);
    const message = `The API key's rate limit was still spent at this request's deadline, after ${waited} s of waiting (it reopens in ${reopens} s)`;
    return new UptimeApiError("rate_limited", 429, message, [], requestId, sent);
  }
  /** GETs every page of a list, the largest pages the API gives. */
  async listAll<T>(path: string, query: Record<string, string> = {}): Promise<T[]> {
    const out: T[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.request<T[]>("GET", path, { query: { ...query, limit: LIST_LIMIT_MAX, cursor } });
      out.push(...page.data);
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    return out;
  }

  /** A fresh key for one logical create: the same across this call's retries. */
  static idempotencyKey(): string {
    return `pulumi-uptime-${randomUUID()}`;
  }

  private parse<T>(res: Dispatcher.ResponseData, text: string, attempts: number, raw = false): ApiResult<T> {
    const requestId = res.headers["x-request-id"] as string | undefined;
    let body: {
      ok?: boolean;
      data?: T;
      next_cursor?: string | null;
      error?: { code: string; message: string; details?: [] };
    };
    try {
      body = JSON.parse(text);
    } catch {
      throw new UptimeApiError(
        "invalid_response",
        res.statusCode,
        `non-JSON answer (HTTP ${res.statusCode})`,
        [],
        requestId,
        attempts,
      );
    }
    if (raw && res.statusCode < 400) return { data: body as T };
    if (body.ok === true && res.statusCode < 400) {
      return {
        data: body.data as T,
        nextCursor: body.next_cursor,
        replayed: res.headers["idempotent-replayed"] === "true",
      };
    }
    const e = body.error ?? { code: "unknown_error", message: `HTTP ${res.statusCode}` };
    throw new UptimeApiError(e.code, res.statusCode, e.message, e.details ?? [], requestId, attempts);
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** attempt);
    return Math.random() * ceiling;
  }
}

const clients = new Map<string, UptimeClient>();

/** The process-wide client of a connection. */
export function clientFor(connection: Connection, options?: ClientOptions): UptimeClient {
  const key = `${connection.baseUrl}\n${connection.apiKey}`;
  let client = clients.get(key);
  if (!client) {
    client = new UptimeClient(connection, options);
    clients.set(key, client);
  }
  return client;
}
