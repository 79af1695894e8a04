import { z } from "zod";
import { type StoredAssertion, assertionFields, ASSERTION_ROWS } from "./assertions";
import { displayName, TAG_MAX } from "./common";
import { type FieldTable, nullableField, optionalField, requiredField } from "./field-table";
import { MAX_URL_LENGTH, requestBody, requestHeaders, StatusCodeRuleSchema, URL_TOO_LONG } from "./headers";
import { BROWSER_SCRIPT_FIELD } from "./monitor-browser";
import { MONITOR_EXTENSION_ROWS, monitorExtensionFields } from "./monitor-extensions";
import { MONITOR_NETWORK_ROWS, monitorNetworkFields } from "./monitor-network";
import { GRPC_SERVICE_FIELD } from "./monitor-protocols";
import { MONITOR_RETRY_ROWS, monitorRetryFields, type StoredRetry } from "./monitor-retry";
import { MONITOR_STEP_ROWS } from "./monitor-step-rows";
import { monitorStepFields, type StoredStep } from "./monitor-steps";

/**
 * A monitor's fields but its `type`: each field's rule (zod), its row of the field table, and the
 * value the server stores. They name no monitor type, so each type's descriptor
 * (api/monitor-types/<type>.ts) can narrow them, and api/monitor.ts adds `type`, the list of the
 * descriptors' names, in front.
 */

export const HTTP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
/** Methods whose requests may carry a body. */
export const METHODS_WITH_BODY: readonly string[] = ["POST", "PUT", "PATCH", "DELETE"];

/** The interval floor of the public service; a server may lower it (tests only). */
export const MIN_INTERVAL_SEC = 30;
/** The interval ceiling: a day. */
export const MAX_INTERVAL_SEC = 86_400;
/** The bounds of `interval_sec`, in words: `30..86400`. */
export const INTERVAL_BOUNDS = `${MIN_INTERVAL_SEC}..${MAX_INTERVAL_SEC}`;
export const DEFAULT_TIMEOUT_SEC = 10;
/** The longest a check may take, in seconds. */
export const MAX_TIMEOUT_SEC = 60;
export const DEFAULT_EXPECTED_STATUS_CODES = ["2xx", "3xx"] as const;

const TAG = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

/**
 * `interval_sec`: whole seconds, `floor`..{@link MAX_INTERVAL_SEC}; `lowest` is what the schema
 * itself lets through (the server's floor judged after it, with its other rules).
 */
export function intervalSec(floor: number, lowest = floor) {
  return z
    .int("must be a whole number of seconds")
    .min(lowest, `must be between ${floor} and ${MAX_INTERVAL_SEC}`)
    .max(MAX_INTERVAL_SEC, `must be at most ${MAX_INTERVAL_SEC}`);
}

/** Writable fields of a monitor but `type`, each with its own rule. */
export const monitorFieldRules = {
  /** Display name, kept exactly as written (see `displayName`). */
  name: displayName(),
  /** The `url` of each type's descriptor (api/monitor-types/<type>.ts); null for the types without one. */
  url: z.string().max(MAX_URL_LENGTH, URL_TOO_LONG).nullable(),
  /** Seconds between checks, {@link INTERVAL_BOUNDS}. */
  // A server may lower the floor: it checks its own after the schema (monitorRuleViolations).
  interval_sec: intervalSec(MIN_INTERVAL_SEC, 1),
  /** Seconds a check may take, 1..{@link MAX_TIMEOUT_SEC} and less than `interval_sec`. */
  timeout_sec: z
    .int("must be a whole number of seconds")
    .min(1, "must be at least 1")
    .max(MAX_TIMEOUT_SEC, `must be at most ${MAX_TIMEOUT_SEC}`),
  /** HTTP method of the probe. */
  method: z.enum(HTTP_METHODS),
  /** Request headers; names are stored lower-cased. At most 50. */
  headers: requestHeaders(
    "Request headers, at most 50; names are stored lower-cased. A secret header (its name is a credential: `Authorization`, `Proxy-Authorization`, `Cookie`, or a name containing `auth`, `key`, `token`, `secret`, `password`, `passwd`, `signature`, `session` or `credential`) is write-only: reads show its fingerprint, and a PATCH that sends a header's fingerprint back keeps the value it stands for.",
  ),
  /** Request body, only with methods that carry one (POST, PUT, PATCH, DELETE); a websocket monitor's message, a udp monitor's datagram. */
  body: requestBody().nullable(),
  /** Codes or classes that count as up; a set, stored sorted. */
  expected_status_codes: z.array(StatusCodeRuleSchema).min(1, "must list at least one code or class").max(50),
  /** Text the response must contain: required for `keyword` monitors, forbidden for others. */
  keyword: z.string().min(1, "must not be empty").max(1024).nullable(),
  /** Whether `keyword` matches case-sensitively. */
  keyword_case_sensitive: z.boolean(),
  /** Whether the probe follows redirects. */
  follow_redirects: z.boolean(),
  ...assertionFields,
  /** Channels notified when the monitor goes down or comes back; a set, stored sorted. */
  channel_ids: z.array(z.string().min(1).max(100)).max(50, "must have at most 50 channels"),
  /** Free labels; stored lower-cased and sorted, as a set. */
  tags: z
    .array(
      z
        .string()
        .max(TAG_MAX, `must be at most ${TAG_MAX} characters`)
        .regex(TAG, "must start with a letter or digit and use only letters, digits and _ . : -"),
    )
    .max(20, "must have at most 20 tags"),
  ...monitorExtensionFields,
  ...monitorStepFields,
  ...monitorRetryFields,
  ...GRPC_SERVICE_FIELD.fields,
  ...monitorNetworkFields,
  ...BROWSER_SCRIPT_FIELD.fields,
};

/** The field-table rows of the writable fields from `intervalSec` on (api/monitor.ts adds `name`, `type` and `url`, whose description the descriptors make, in front). */
export const MONITOR_FIELD_ROWS = {
  /** Seconds between checks, {@link INTERVAL_BOUNDS}. */
  intervalSec: requiredField("interval_sec", "integer", `Seconds between checks, ${INTERVAL_BOUNDS}.`),
  /** Seconds a check may take, 1..{@link MAX_TIMEOUT_SEC} and less than `intervalSec`. Default 10. */
  timeoutSec: {
    api: "timeout_sec",
    type: { type: "integer" },
    description: `Seconds a check may take, 1..${MAX_TIMEOUT_SEC}, less than \`intervalSec\`.`,
    default: DEFAULT_TIMEOUT_SEC,
    // The default is not one constant: a short interval lowers it (toMonitorSpec).
    dynamicDefault: `${DEFAULT_TIMEOUT_SEC}, or \`intervalSec\` − 1 when the interval is shorter than ${DEFAULT_TIMEOUT_SEC + 1} seconds`,
  },
  /** HTTP method of the probe. Default `GET`. */
  method: {
    api: "method",
    type: { type: "string", enum: HTTP_METHODS },
    description: "HTTP method of the probe.",
    default: "GET",
  },
  /** Request headers (at most 50). Names are compared case-insensitively. Stored as a secret. */
  headers: {
    api: "headers",
    type: { type: "object", additionalProperties: { type: "string" } },
    secret: true,
    normal: "case-insensitive-keys",
    description:
      "Request headers (the metadata of grpc, the handshake's of websocket monitors), at most 50; names compared case-insensitively; secret.",
    default: {},
  },
  /** Request body, only with POST, PUT, PATCH or DELETE. Stored as a secret. */
  body: {
    api: "body",
    type: { type: "string", nullable: true },
    secret: true,
    description:
      "Request body, only with POST, PUT, PATCH, DELETE; the message a websocket monitor sends, the datagram of udp (required); secret.",
    default: null,
  },
  /** Status codes or classes that count as up, e.g. `[200, "3xx"]`; a set. Default `["2xx", "3xx"]`. */
  expectedStatusCodes: {
    api: "expected_status_codes",
    type: { type: "array", items: { oneOf: [{ type: "integer" }, { type: "string" }] } },
    normal: "set",
    description: 'Codes or classes that count as up, e.g. `[200, "3xx"]`; a set.',
    default: DEFAULT_EXPECTED_STATUS_CODES,
  },
  /** Text the response must contain: required for `keyword` monitors, forbidden for others. */
  keyword: nullableField(
    "keyword",
    "string",
    "Text the response must contain: required for `keyword` monitors, forbidden otherwise.",
  ),
  /** Whether `keyword` matches case-sensitively. Default false. */
  keywordCaseSensitive: optionalField(
    "keyword_case_sensitive",
    "boolean",
    "Whether `keyword` matches case-sensitively.",
    false,
  ),
  ...ASSERTION_ROWS,
  /** Whether probes follow redirects. Default true. */
  followRedirects: optionalField("follow_redirects", "boolean", "Whether probes follow redirects.", true),
  /** Channels notified when the monitor goes down or comes back; a set. */
  channelIds: {
    api: "channel_ids",
    type: { type: "array", items: { type: "string" } },
    normal: "set",
    description: "Channels notified when the monitor goes down or comes back; a set.",
    default: [],
  },
  /** Free labels, compared case-insensitively; a set. */
  tags: {
    api: "tags",
    type: { type: "array", items: { type: "string" } },
    normal: "lowercase-set",
    description: "Free labels of letters, digits, `_ . : -`; compared lower-case; a set.",
    default: [],
  },
  ...MONITOR_EXTENSION_ROWS,
  ...MONITOR_STEP_ROWS,
  ...MONITOR_RETRY_ROWS,
  ...GRPC_SERVICE_FIELD.rows,
  ...MONITOR_NETWORK_ROWS,
  ...BROWSER_SCRIPT_FIELD.rows,
} as const satisfies FieldTable;

/** Every writable field but `type`, defaults applied and normal forms taken: what the server stores. */
export type MonitorFieldValues = {
  -readonly [K in keyof typeof monitorFieldRules]: K extends "assertions"
    ? StoredAssertion[]
    : K extends "steps"
      ? StoredStep[]
      : K extends "retry"
        ? StoredRetry | null
        : z.output<(typeof monitorFieldRules)[K]>;
};
