import { z } from "zod";
import { issuesToDetails, LOCATION_NAME, MIN_INTERVAL_SEC } from "../api";

/** Options of the reference server, validated once at start and then frozen. */
export const ServerOptionsSchema = z.strictObject({
  /** SQLite database file, `:memory:`, or a PostgreSQL URL (`postgres://…`: several replicas may share it). */
  db: z.string().min(1).default(":memory:"),
  /** Floor of `interval_sec`; lower than 30 only for tests and demos. */
  minIntervalSec: z.int().min(1).max(MIN_INTERVAL_SEC).default(MIN_INTERVAL_SEC),
  /** Requests per key per window (the API's 600 per minute). */
  rateLimit: z.int().min(1).default(600),
  /** Window of the per-key and per-address limits, in milliseconds. */
  rateLimitWindowMs: z.int().min(1000).default(60_000),
  /** Failed authentications per client address per window before 429s replace 401s. */
  authFailureLimit: z.int().min(1).default(20),
  /** Requests per client address per window on the public status document. */
  publicRateLimit: z.int().min(1).default(300),
  /** Monitor cap of an account without its own; null for unlimited. Never below the free 10. */
  monitorLimit: z.int().min(10).nullable().default(null),
  /** Seeds an account `dev` with this key at start (development and tests). */
  devKey: z
    .string()
    .regex(/^uk_[A-Za-z0-9_-]{16,}$/, "must look like uk_ followed by at least 16 letters, digits, _ or -")
    .optional(),
  /**
   * Key file sealing secrets at rest (AES-256-GCM); default `<db>.key` beside the database,
   * created 0600 on first start. An in-memory database uses a key held in memory.
   */
  secretKeyFile: z.string().min(1).optional(),
  /**
   * The RDAP bootstrap file (RFC 9224) domain expiry looks each top-level domain's RDAP service up
   * in; IANA's by default. Fetched under the outbound policy like every probe.
   */
  rdapBootstrapUrl: z
    .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
    .default("https://data.iana.org/rdap/dns.json"),
  /** Let probes and webhooks reach private and loopback addresses (tests, on-premises). */
  allowPrivateTargets: z.boolean().default(false),
  /** Pino logger options, or false for none. */
  logger: z.union([z.boolean(), z.looseObject({ level: z.string().optional() })]).default(true),
  /**
   * Serve the extensions beyond the documented API (GET/PATCH/DELETE on channels and status pages,
   * the OpenAPI document). Off only to test clients against a seed-only service.
   */
  extensions: z.boolean().default(true),
  /**
   * Serve `POST <collection>/batch` (up to 100 writes of one kind per request) with the other
   * extensions. Off only to test clients against a service without it.
   */
  batchWrites: z.boolean().default(true),
  /** Probe active monitors (off: the API only, e.g. to inspect a database). */
  checker: z.boolean().default(true),
  /** Probes running at once. */
  checkConcurrency: z.int().min(1).max(10_000).default(64),
  /** Send email notifications through this SMTP server (`smtp://user:pass@host:587`); else the outbox. */
  smtpUrl: z.url({ protocol: /^smtps?$/, error: "must be an smtp:// or smtps:// URL" }).optional(),
  /** Sender address of email notifications. */
  smtpFrom: z.email().default("uptime@localhost"),
  /** Delays between delivery attempts of a notification (and of a status page's notice to a subscriber), in milliseconds. */
  notifyRetryDelaysMs: z.array(z.int().min(0)).max(10).default([1_000, 5_000, 30_000]),
  /** How often reminders and escalations of open incidents are computed, and pending notifications sent, in milliseconds. */
  alertTickMs: z.int().min(50).max(60_000).default(1_000),
  /** How often status pages' incident rules are evaluated, in milliseconds. */
  incidentRuleTickMs: z.int().min(50).max(600_000).default(10_000),
  /** Subscription requests per address (email, webhook URL or client address) per hour, on each status page. */
  subscribeLimitPerHour: z.int().min(1).max(10_000).default(5),
  /** The public base URL of the server (links in subscribers' mails and feeds); default: the request's own. */
  publicUrl: z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" }).optional(),
  /** Time for a client to send a request's headers, in milliseconds. */
  headersTimeoutMs: z.int().min(100).default(10_000),
  /** Time for a client to send a whole request (headers and body), in milliseconds; then 408. */
  requestTimeoutMs: z.int().min(100).default(30_000),
  /** A socket with no traffic at all is closed after this, in milliseconds. */
  idleTimeoutMs: z.int().min(100).default(120_000),
  /** An idle kept-alive connection is closed after this, in milliseconds (above common proxies' 60 s). */
  keepAliveTimeoutMs: z.int().min(100).default(72_000),
  /** Requests served on one kept-alive connection before it is closed. */
  maxRequestsPerSocket: z.int().min(1).default(1_000),
  /** Open connections in all; more are closed at once. */
  maxConnections: z.int().min(1).default(10_000),
  /** Open connections per client address (0: no cap); raise it behind a reverse proxy. */
  maxConnectionsPerAddress: z.int().min(0).default(256),
  /** Trust X-Forwarded-For for the client address (behind a reverse proxy). */
  trustProxy: z.boolean().default(false),
  /**
   * The key Prometheus sends (`Authorization: Bearer <key>`) to read /metrics; never an account's
   * key. Without one, /metrics answers 404.
   */
  metricsKey: z
    .string()
    .regex(/^[\x21-\x7e]{16,256}$/, "must be 16 to 256 visible ASCII characters")
    .refine((key) => !key.startsWith("uk_"), "must not be an account's API key (uk_…): make a key of its own")
    .optional(),
  /** The `location` label of the checks this server runs itself. */
  location: z.string().regex(LOCATION_NAME, "must be lowercase letters, digits, _ or -").default("local"),
  /** How long an agent's lease of a check holds (ms): unanswered by then, the check goes to another agent of the location. */
  leaseMs: z.int().min(500).max(600_000).default(30_000),
  /** An agent not heard from for this long (ms) no longer serves its location (it then never makes a monitor down). */
  agentLiveMs: z.int().min(1_000).max(3_600_000).default(30_000),
  /** On SIGTERM, the longest wait for requests, checks and notifications in flight before exiting anyway. */
  shutdownTimeoutMs: z.int().min(0).default(20_000),
});
export type ServerOptionsInput = z.input<typeof ServerOptionsSchema>;
export type ServerOptions = Readonly<z.output<typeof ServerOptionsSchema>>;

/** Validates options; a bad one fails start-up with a message naming it. */
export function resolveOptions(input: ServerOptionsInput = {}): ServerOptions {
  const parsed = ServerOptionsSchema.safeParse(input);
  if (!parsed.success) {
    const problems = issuesToDetails(parsed.error.issues).map((d) => `${d.field}: ${d.message}`);
    throw new Error(`Invalid server options: ${problems.join("; ")}`);
  }
  return Object.freeze(parsed.data);
}
