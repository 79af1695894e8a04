import { randomUUID } from "node:crypto";
import { Agent, type Dispatcher, request } from "undici";
import type { Connection } from "./connection";
import { currentDeadline, timedOut, waitWithin, within } from "./deadline";
import { UptimeApiError } from "./errors";
import { RateBudget } from "./rate-budget";

/** Options of a client; the defaults suit a large `pulumi up`. */
export interface ClientOptions {
  /** Retries after the first attempt, for 429s, 5xx and network errors of safe requests. */
  maxRetries?: number;
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
const NETWORK_CODES = new Set(["ECONNRESET", "ECONNREFUSED", "ETIMEDOUT", "EPIPE", "UND_ERR_SOCKET", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

let sharedAgent: Agent | undefined;
/** One connection pool per process, shared by every resource. */
function agent(): Dispatcher {
  sharedAgent ??= new Agent({ keepAliveTimeout: 10_000, connections: 16 });
  return sharedAgent;
}

type Throttle = <T>(fn: () => Promise<T>) => Promise<T>;
const budgets = new Map<string, RateBudget>();

/**
 * One budget per service and API key in this process (the service counts per key). It follows the
 * server's rate-limit headers; a server without them is paced at `perMinute` (p-throttle).
 */
function budgetFor(connection: Connection, perMinute: number): RateBudget {
  const id = `${connection.baseUrl}\n${connection.apiKey}`;
  let budget = budgets.get(id);
  if (!budget) {
    let throttle: Promise<Throttle> | undefined;
    budget = new RateBudget(() => {
      throttle ??= import("p-throttle").then(({ default: pThrottle }) => {
        const perSecond = Math.max(1, Math.floor(perMinute / 60));
        return pThrottle({ limit: perSecond, interval: 1000, strict: true })((fn: () => Promise<unknown>) => fn()) as Throttle;
      });
      return throttle;
    });
    budgets.set(id, budget);
  }
  return budget;
}

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
 * Idempotency-Key) are retried on 429, 5xx and network errors with jittered exponential backoff;
 * a 429 waits for `Retry-After` / `X-RateLimit-Reset`. Errors carry the API's code and request id.
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
      baseDelayMs: options.baseDelayMs ?? 250,
      maxDelayMs: options.maxDelayMs ?? 15_000,
      timeoutMs: options.timeoutMs ?? 30_000,
      requestsPerMinute: options.requestsPerMinute ?? 540,
    };
    for (const [name, value] of Object.entries(this.options)) {
      if (!Number.isFinite(value) || value < 0) throw new TypeError(`ClientOptions.${name} must be a number >= 0`);
    }
  }

  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<ApiResult<T>> {
    const url = new URL(`${this.connection.baseUrl}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.connection.apiKey}`,
      accept: "application/json",
      "user-agent": "pulumi-uptime",
    };
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    if (opts.idempotencyKey) headers["idempotency-key"] = opts.idempotencyKey;
    const retrySafe = SAFE_METHODS.has(method) || Boolean(opts.idempotencyKey) || opts.idempotent === true;
    const budget = budgetFor(this.connection, this.options.requestsPerMinute);
    const write = method !== "GET" && method !== "HEAD";

    // The resource's customTimeouts, if any: every wait below ends when it is spent.
    const deadline = currentDeadline();
    const call = `${method} ${url.pathname}`;
    for (let attempt = 0; ; attempt++) {
      let res: Dispatcher.ResponseData;
      let text: string;
      const acquired = await within(budget.acquire(), `waiting for the API's rate limit before ${call}`, (late) => late());
      let released = false;
      const release: typeof acquired = (h) => void (released || ((released = true), acquired(h)));
      if (write) this.writes++;
      try {
        res = await request(url, {
          method: method as Dispatcher.HttpMethod,
          headers,
          body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
          dispatcher: agent(),
          headersTimeout: this.options.timeoutMs,
          bodyTimeout: this.options.timeoutMs,
          signal: deadline?.signal,
        });
        release(res.headers);
        text = await res.body.text();
      } catch (err) {
        release();
        if (write) this.writes++;
        if (deadline?.signal.aborted) throw timedOut(deadline, `waiting for the answer to ${call}`, attempt + 1);
        const code = (err as { code?: string }).code ?? "";
        if (retrySafe && NETWORK_CODES.has(code) && attempt < this.options.maxRetries) {
          await waitWithin(this.backoff(attempt), `retrying ${call} after a network error`);
          continue;
        }
        throw new UptimeApiError("network_error", 0, `${call} failed: ${(err as Error).message}`, [], undefined, attempt + 1);
      }
      if (write) this.writes++;
      // A 429 was refused before any work, so it is safe to retry whatever the method.
      const again = RETRY_STATUS.has(res.statusCode) && (retrySafe || res.statusCode === 429);
      if ((again || (opts.idempotencyKey && keyInProgress(res.statusCode, text))) && attempt < this.options.maxRetries) {
        // A 429 with the rate-limit headers already made the budget wait for the window's reset.
        const followed = res.statusCode === 429 && res.headers["x-ratelimit-limit"] !== undefined;
        const why = `retrying ${call} after HTTP ${res.statusCode}`;
        if (!followed) await waitWithin(res.statusCode === 429 ? this.rateLimitWait(res.headers, attempt) : this.backoff(attempt), why);
        continue;
      }
      return this.parse<T>(res, text, attempt + 1, opts.raw);
    }
  }

  /** GETs every page of a list. */
  async listAll<T>(path: string, query: Record<string, string> = {}): Promise<T[]> {
    const out: T[] = [];
    let cursor: string | undefined;
    do {
      const page = await this.request<T[]>("GET", path, { query: { ...query, limit: 200, cursor } });
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
    let body: { ok?: boolean; data?: T; next_cursor?: string | null; error?: { code: string; message: string; details?: [] } };
    try {
      body = JSON.parse(text);
    } catch {
      throw new UptimeApiError("invalid_response", res.statusCode, `non-JSON answer (HTTP ${res.statusCode})`, [], requestId, attempts);
    }
    if (raw && res.statusCode < 400) return { data: body as T };
    if (body.ok === true && res.statusCode < 400) {
      return { data: body.data as T, nextCursor: body.next_cursor, replayed: res.headers["idempotent-replayed"] === "true" };
    }
    const e = body.error ?? { code: "unknown_error", message: `HTTP ${res.statusCode}` };
    throw new UptimeApiError(e.code, res.statusCode, e.message, e.details ?? [], requestId, attempts);
  }

  private backoff(attempt: number): number {
    const ceiling = Math.min(this.options.maxDelayMs, this.options.baseDelayMs * 2 ** attempt);
    return Math.random() * ceiling;
  }

  private rateLimitWait(headers: Dispatcher.ResponseData["headers"], attempt: number): number {
    const seconds = Number(headers["retry-after"] ?? headers["x-ratelimit-reset"]);
    const base = Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : this.backoff(attempt);
    // Jitter spreads the retries of many resources that were refused at the same moment.
    return Math.min(this.options.maxDelayMs * 4, base + Math.random() * this.options.baseDelayMs);
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
