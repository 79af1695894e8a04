import { z } from "zod";
import { documentOnlyMeta, ExternalIdSchema } from "./common";
import { DOMAIN_EXPIRY_TYPES, DOMAIN_NAME, isNetworkType, NETWORK_ASSERTION_SOURCES } from "./monitor-network";
import { PROTOCOL_ASSERTION_SOURCES, isProtocolType } from "./monitor-protocols";
import { MAX_INTERVAL_SEC, METHODS_WITH_BODY, MIN_INTERVAL_SEC, MONITOR_TYPES, type MonitorType, monitorFields } from "./monitor";

/**
 * The monitor's request bodies as one server builds them: the interval floor is the server's own
 * (`minIntervalSec`), so its OpenAPI document states the bound it enforces.
 *
 * `create` and `update` are the flat schemas the server validates with; their messages are the
 * API's (see `monitorRuleViolations` for the rules across fields). `documentedCreate` says the
 * same thing as one union with a discriminator on `type`: each type's fields allowed only where
 * they apply, with the rules across fields that JSON Schema can state (`if`/`then`). It is the
 * document's body schema; test/server/monitor-variants.test.ts proves that it and the server's
 * validation accept the same bodies.
 */
export function monitorBodySchemas(minIntervalSec: number = MIN_INTERVAL_SEC) {
  const interval_sec = z
    .int("must be a whole number of seconds")
    .min(minIntervalSec, `must be between ${minIntervalSec} and ${MAX_INTERVAL_SEC}`)
    .max(MAX_INTERVAL_SEC, `must be at most ${MAX_INTERVAL_SEC}`);
  // Reminders no more often than checks may run. The server checks that after the schema, with
  // its other rules (all reported at once); the document states this server's floor.
  const remindAtLeast = monitorFields.remind_every_sec.unwrap().clone();
  documentOnlyMeta.add(remindAtLeast, { minimum: minIntervalSec });
  const remind_every_sec = remindAtLeast.nullable().meta(monitorFields.remind_every_sec.meta() ?? {});
  const flat = { ...monitorFields, interval_sec, remind_every_sec };
  const create = z
    .strictObject(
      Object.fromEntries(Object.entries(flat).map(([k, rule]) => [k, REQUIRED.has(k) ? rule : rule.optional()])) as {
        [K in keyof typeof flat]: z.ZodOptional<(typeof flat)[K]>;
      },
    )
    .extend({ name: flat.name, type: flat.type, interval_sec, external_id: ExternalIdSchema.optional() });
  // A PATCH does not name the type: the document states each field's shape, and the stored
  // monitor's type decides the rest (a 422 naming the field).
  const update = create
    .omit({ type: true })
    .partial()
    .extend({ url: f.url.unwrap().meta({ format: "uri" }).nullable().optional(), dns_resolver: resolver() });
  const documentedCreate = z.discriminatedUnion(
    "type",
    MONITOR_TYPES.map((type) => variant(type, interval_sec, remind_every_sec)) as unknown as [z.ZodObject, ...z.ZodObject[]],
  );
  return { create, update, documentedCreate };
}

const REQUIRED = new Set(["name", "type", "interval_sec"]);
const PROBED = new Set<MonitorType>(["http", "keyword"]);
/** Types whose checks assertions judge. */
const ASSERTED = new Set<MonitorType>(["http", "keyword", "grpc", "websocket", "udp", "ping", "smtp", "domain"]);
const f = monitorFields;
const nothing = z.null().optional();
const empty = z.array(z.never()).max(0).optional();

/** A host of a URL with a non-special scheme, as WHATWG URL parses it (no forbidden code points). */
const HOST = "[A-Za-z0-9._~!$&'()*+,;=-]+";
const PORT = "(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])";

/** The `url` each type takes: the same shapes `monitorRuleViolations` checks. */
const URLS: Record<MonitorType, z.ZodType> = {
  http: probeUrl(),
  keyword: probeUrl(),
  tcp: f.url.unwrap().regex(new RegExp(`^tcp://${HOST}:${PORT}/?$`), "must be tcp://host:port for tcp monitors").meta({ format: "uri" }),
  dns: f.url.unwrap().regex(new RegExp(`^dns://${HOST}/?$`), "must be dns://host.name for dns monitors").meta({ format: "uri" }),
  heartbeat: nothing,
  multistep: nothing,
  browser: nothing,
  grpc: f.url.unwrap().regex(new RegExp(`^grpcs?://${HOST}:${PORT}/?$`), "must be grpc://host:port (plaintext) or grpcs://host:port (TLS) for grpc monitors").meta({ format: "uri" }),
  websocket: f.url.unwrap().regex(/^wss?:\/\/[^\s/?#@\\]+(?:[/?#]\S*)?$/, "must be ws:// or wss:// for websocket monitors").meta({ format: "uri" }),
  udp: f.url.unwrap().regex(new RegExp(`^udp://${HOST}:${PORT}/?$`), "must be udp://host:port for udp monitors").meta({ format: "uri" }),
  ping: f.url.unwrap().regex(new RegExp(`^ping://${HOST}/?$`), "must be ping://host (a name or an IP address) for ping monitors").meta({ format: "uri" }),
  smtp: f.url.unwrap().regex(new RegExp(`^smtps?://${HOST}(?::${PORT})?/?$`), "must be smtp://host[:port] or smtps://host[:port] for smtp monitors").meta({ format: "uri" }),
  domain: f.url.unwrap().regex(new RegExp(`^domain://${DOMAIN_NAME.source.slice(1, -1)}/?$`), "must be domain://registered.name for domain monitors").meta({ format: "uri" }),
};

function probeUrl() {
  return f.url.unwrap().regex(/^https?:\/\/[^\s/?#@\\]+(?:[/?#]\S*)?$/, "must start with http:// or https://").meta({ format: "uri" });
}

/** One type's body: its own fields, and `null` (or `[]`) alone for fields of other types. */
function variant(type: MonitorType, interval_sec: z.ZodType, remind_every_sec: z.ZodType) {
  const probed = PROBED.has(type);
  const shape = {
    name: f.name,
    type: z.literal(type),
    url: URLS[type],
    interval_sec,
    timeout_sec: f.timeout_sec.optional(),
    method: f.method.optional(),
    headers: f.headers.optional(),
    body: type === "udp" ? f.body.unwrap() : type === "grpc" || type === "browser" || isNetworkType(type) ? nothing : f.body.optional(),
    expected_status_codes: f.expected_status_codes.optional(),
    keyword: type === "keyword" ? f.keyword.unwrap() : nothing,
    keyword_case_sensitive: f.keyword_case_sensitive.optional(),
    follow_redirects: f.follow_redirects.optional(),
    assertions: ASSERTED.has(type) ? f.assertions.optional() : empty,
    degraded_response_ms: type === "heartbeat" ? nothing : f.degraded_response_ms.optional(),
    max_response_ms: type === "heartbeat" ? nothing : f.max_response_ms.optional(),
    channel_ids: f.channel_ids.optional(),
    tags: f.tags.optional(),
    grace_sec: f.grace_sec.optional(),
    ssl_expiry_days: probed || type === "smtp" ? f.ssl_expiry_days.optional() : nothing,
    verify_tls: f.verify_tls.optional(),
    dns_record_type: f.dns_record_type.optional(),
    dns_expected_values: type === "dns" ? dnsValues() : empty,
    dns_resolver: type === "dns" ? resolver() : nothing,
    confirmations: f.confirmations.optional(),
    recovery_confirmations: f.recovery_confirmations.optional(),
    remind_every_sec: remind_every_sec.optional(),
    escalation: f.escalation.optional(),
    locations: type === "heartbeat" ? nothing : f.locations.optional(),
    failure_threshold: f.failure_threshold.optional(),
    retry: type === "heartbeat" ? nothing : f.retry.optional(),
    steps: type === "multistep" ? f.steps.min(1, "must list at least one step for multistep monitors") : empty,
    variables: type === "multistep" || type === "browser" ? f.variables.optional() : z.strictObject({}).optional(),
    grpc_service: type === "grpc" ? f.grpc_service.optional() : nothing,
    ping_count: type === "ping" ? f.ping_count.optional() : nothing,
    smtp_starttls: type === "smtp" ? f.smtp_starttls.optional() : nothing,
    domain_expiry_days: DOMAIN_EXPIRY_TYPES.includes(type) ? f.domain_expiry_days.optional() : nothing,
    script: type === "browser" ? f.script.unwrap() : nothing,
    external_id: ExternalIdSchema.optional(),
  };
  const rules = crossFieldRules(type);
  // JSON Schema forbids an empty allOf: a type with no rule across fields (browser) has none.
  return z.strictObject(shape).meta({ title: `${type} monitor`, ...(rules.length > 0 ? { allOf: rules } : {}) });
}

function dnsValues() {
  return f.dns_expected_values.min(1, "must list at least one value for dns monitors");
}

function resolver() {
  const withPort = `^(?:(?:[0-9]{1,3}\\.){3}[0-9]{1,3}|\\[[0-9A-Fa-f:.]+\\]):${PORT}$`;
  return z
    .string()
    .max(100)
    .meta({ anyOf: [{ format: "ipv4" }, { format: "ipv6" }, { pattern: withPort }] })
    .nullable()
    .optional();
}

/**
 * Rules between fields that JSON Schema can state, as `if`/`then`: zod cannot carry them into
 * the document, so they are written here once, beside the union they belong to.
 */
function crossFieldRules(type: MonitorType): object[] {
  const rules: object[] = [];
  if (type !== "websocket" && type !== "udp" && type !== "browser" && !isNetworkType(type)) {
    rules.push({
      // A body only with a method that carries one (the method's default, GET, carries none);
      // a websocket monitor's body is its message and a udp monitor's its datagram.
      if: { properties: { body: { type: "string" } }, required: ["body"] },
      then: { properties: { method: { enum: METHODS_WITH_BODY } }, required: ["method"] },
    });
  }
  if (isProtocolType(type)) {
    // What each protocol's assertions may read.
    rules.push({ properties: { assertions: { items: { properties: { source: { enum: PROTOCOL_ASSERTION_SOURCES[type] } } } } } });
  }
  if (isNetworkType(type)) {
    // What each network type's assertions may read.
    rules.push({ properties: { assertions: { items: { properties: { source: { enum: NETWORK_ASSERTION_SOURCES[type] } } } } } });
  }
  if (type === "smtp") {
    // STARTTLS only with smtp:// (smtps:// is TLS from the start); no certificate without TLS.
    rules.push(
      { if: { properties: { url: { pattern: "^smtps://" } } }, then: { properties: { smtp_starttls: { type: "null" } } } },
      { if: { properties: { smtp_starttls: { const: false } }, required: ["smtp_starttls"] }, then: { properties: { ssl_expiry_days: { type: "null" } } } },
    );
  }
  if (PROBED.has(type)) {
    rules.push({
      // Domain expiry only where the URL's host is a domain name.
      if: { properties: { url: { not: { pattern: `^https?://${DOMAIN_NAME.source.slice(1, -1)}(?::[0-9]*)?(?:[/?#]|$)` } } } },
      then: { properties: { domain_expiry_days: { type: "null" } } },
    });
    rules.push({
      // Certificate expiry only for https:// URLs.
      if: { properties: { url: { not: { pattern: "^https://" } } } },
      then: { properties: { ssl_expiry_days: { type: "null" } } },
    });
  }
  if (type === "dns") {
    const values = (items: object) => ({ properties: { dns_expected_values: { items } } });
    const recordType = (t: string) => ({ properties: { dns_record_type: { const: t } }, required: t === "A" ? [] : ["dns_record_type"] });
    rules.push(
      { if: recordType("A"), then: values({ format: "ipv4" }) },
      { if: recordType("AAAA"), then: values({ format: "ipv6" }) },
      { if: recordType("MX"), then: values({ pattern: "^\\s*[0-9]{1,5}\\s+\\S" }) },
    );
  }
  return rules;
}
