import { randomUUID } from "node:crypto";
import { Agent, type Dispatcher, request } from "undici";
import type { Connection } from "./connection";
import { UptimeApiError } from "./errors";

/** Options of a client; the defaults suit a large `pulumi up`. */
export interface ClientOptions {
  /** Retries after the first attempt, for 429s, 5xx and network errors of safe requests. */
  maxRetries?: number;
  /** First backoff step; each retry doubles it (full jitter), up to `maxDelayMs`. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Per-request timeout. */
  timeoutMs?: number;
  /** Client-side budget per API key, kept below the service's 600 requests per minute. */
  requestsPerMinute?: number;
}

export interface RequestOptions {
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  /** Sent as `Idempotency-Key`; makes a POST safe to retry. */
  idempotencyKey?: string;
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
const throttles = new Map<string, Promise<Throttle>>();

/** One sliding-window budget per API key and process: the service counts per key. */
function throttleFor(key: string, perMinute: number): Promise<Throttle> {
  let throttle = throttles.get(key);
  if (!throttle) {
    throttle = import("p-throttle").then(({ default: pThrottle }) => {
      const perSecond = Math.max(1, Math.floor(perMinute / 60));
      const limited = pThrottle({ limit: perSecond, interval: 1000, strict: true })((fn: () => Promise<unknown>) => fn());
      return limited as Throttle;
    });
    throttles.set(key, throttle);
  }
  return throttle;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The API client: one `request()` core under thin calls. Safe requests (and POSTs with an
 * Idempotency-Key) are retried on 429, 5xx and network errors with jittered exponential backoff;
 * a 429 waits for `Retry-After` / `X-RateLimit-Reset`. Errors carry the API's code and request id.
 */
export class UptimeClient {
  private readonly options: Required<ClientOptions>;

  constructor(
    readonly connection: Connection,
    options: ClientOptions = {},
  ) {
    this.options = {
      maxRetries: options.maxRetries ?? 6,
      baseDelayMs: options.baseDelayMs ?? 250,
      maxDelayMs: options.maxDelayMs ?? 15_000,
      timeoutMs: options.timeoutMs ?? 30_000,
      requestsPerMinute: options.requestsPerMinute ?? 540,
    };
    for (const [name, value] of Object.entries(this.options)) {
      if (!Number.isFinite(value) || value < 0) throw new TypeError(`ClientOptions.${name} must be a number >= 0`);
    }
  }

  async request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<{ data: T; nextCursor?: string | null }> {
    const url = new URL(`${this.connection.baseUrl}${path}`);
    for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined) url.searchParams.set(k, String(v));
    const headers: Record<string, string> = {
      authorization: `Bearer ${this.connection.apiKey}`,
      accept: "application/json",
      "user-agent": "pulumi-uptime",
    };
    if (opts.body !== undefined) headers["content-type"] = "application/json";
    if (opts.idempotencyKey) headers["idempotency-key"] = opts.idempotencyKey;
    const retrySafe = SAFE_METHODS.has(method) || Boolean(opts.idempotencyKey);
    const throttle = await throttleFor(this.connection.apiKey, this.options.requestsPerMinute);

    for (let attempt = 0; ; attempt++) {
      let res: Dispatcher.ResponseData;
      try {
        res = await throttle(() =>
          request(url, {
            method: method as Dispatcher.HttpMethod,
            headers,
            body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
            dispatcher: agent(),
            headersTimeout: this.options.timeoutMs,
            bodyTimeout: this.options.timeoutMs,
          }),
        );
      } catch (err) {
        const code = (err as { code?: string }).code ?? "";
        if (retrySafe && NETWORK_CODES.has(code) && attempt < this.options.maxRetries) {
          await sleep(this.backoff(attempt));
          continue;
        }
        throw new UptimeApiError("network_error", 0, `${method} ${url.pathname} failed: ${(err as Error).message}`);
      }
      const text = await res.body.text();
      // A 429 was refused before any work, so it is safe to retry whatever the method.
      if (RETRY_STATUS.has(res.statusCode) && (retrySafe || res.statusCode === 429) && attempt < this.options.maxRetries) {
        await sleep(res.statusCode === 429 ? this.rateLimitWait(res.headers, attempt) : this.backoff(attempt));
        continue;
      }
      return this.parse<T>(res, text);
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

  private parse<T>(res: Dispatcher.ResponseData, text: string): { data: T; nextCursor?: string | null } {
    const requestId = res.headers["x-request-id"] as string | undefined;
    let body: { ok?: boolean; data?: T; next_cursor?: string | null; error?: { code: string; message: string; details?: [] } };
    try {
      body = JSON.parse(text);
    } catch {
      throw new UptimeApiError("invalid_response", res.statusCode, `non-JSON answer (HTTP ${res.statusCode})`, [], requestId);
    }
    if (body.ok === true && res.statusCode < 400) return { data: body.data as T, nextCursor: body.next_cursor };
    const e = body.error ?? { code: "unknown_error", message: `HTTP ${res.statusCode}` };
    throw new UptimeApiError(e.code, res.statusCode, e.message, e.details ?? [], requestId);
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
