import { RE2JS } from "re2js";
import { z } from "zod";
import { type FieldTable, nullableField, objectType } from "./field-table";
import { HEADER_NAME } from "./headers";

/**
 * Assertions of http and keyword monitors: `{ source, property?, comparison, target? }`, checked
 * against each response after `expected_status_codes` and `keyword`. One model for the server's
 * 422s, the provider's check failures, the schema and the README.
 */

/** What an assertion looks at. */
export const ASSERTION_SOURCES = ["status_code", "json_body", "headers", "text_body", "response_time"] as const;
export type AssertionSource = (typeof ASSERTION_SOURCES)[number];

/** How the value is compared with `target`. */
export const ASSERTION_COMPARISONS = [
  "equals",
  "not_equals",
  "greater_than",
  "less_than",
  "contains",
  "not_contains",
  "is_empty",
  "not_empty",
  "matches",
] as const;
export type AssertionComparison = (typeof ASSERTION_COMPARISONS)[number];

/** Comparisons of the numeric sources (`status_code`, `response_time`). */
export const NUMERIC_COMPARISONS: readonly AssertionComparison[] = [
  "equals",
  "not_equals",
  "greater_than",
  "less_than",
];
/** Comparisons that take no target. */
export const TARGETLESS: readonly AssertionComparison[] = ["is_empty", "not_empty"];
/** At most this many assertions per monitor. */
export const MAX_ASSERTIONS = 20;
/** The most of a response body assertions (and `keyword`) read: 1 MiB. The rest is not read. */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** Comparisons that judge one source or another (text bodies have no order). */
export function comparisonsOf(source: AssertionSource): readonly AssertionComparison[] {
  if (source === "status_code" || source === "response_time") return NUMERIC_COMPARISONS;
  if (source === "text_body") return ASSERTION_COMPARISONS.filter((c) => c !== "greater_than" && c !== "less_than");
  return ASSERTION_COMPARISONS;
}

/** Why `path` is not a JSONPath the checker evaluates, or undefined. Filters and scripts are refused. */
export function jsonPathProblem(path: string): string | undefined {
  if (!path.startsWith("$")) return 'must be a JSONPath starting with "$", e.g. "$.status"';
  // Filter (`?(…)`) and script (`(…)`) expressions would be code: the checker never runs them.
  if (/[?()]|@/.test(path.replace(/'[^']*'|"[^"]*"/g, ""))) return "must not use filter or script expressions";
  return undefined;
}

/** Why `pattern` is not a regular expression the checker runs (RE2 syntax, linear time), or undefined. */
export function regexProblem(pattern: string): string | undefined {
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (err) {
    return `must be a valid RE2 regular expression: ${(err as Error).message}`;
  }
}

/** The rules between an assertion's fields, as `[field, message]` (field relative to the assertion). */
export function assertionProblems(a: {
  source: AssertionSource;
  property?: string | null;
  comparison: AssertionComparison;
  target?: string | null;
}): [string, string][] {
  const out: [string, string][] = [];
  const property = a.property ?? null;
  const target = a.target ?? null;
  if (a.source === "headers" && property === null)
    out.push(["property", "is required for headers assertions (the header name)"]);
  if (a.source === "headers" && property !== null && !HEADER_NAME.test(property))
    out.push(["property", "must be a valid header name"]);
  if (a.source === "json_body" && property !== null) {
    const why = jsonPathProblem(property);
    if (why) out.push(["property", why]);
  }
  if (a.source !== "headers" && a.source !== "json_body" && property !== null) {
    out.push(["property", `is only allowed for headers and json_body assertions, not ${a.source}`]);
  }
  if (!comparisonsOf(a.source).includes(a.comparison)) {
    out.push(["comparison", `must be one of ${comparisonsOf(a.source).join(", ")} for ${a.source}`]);
    return out;
  }
  if (TARGETLESS.includes(a.comparison)) {
    if (target !== null) out.push(["target", `must be left out for ${a.comparison}`]);
    return out;
  }
  if (target === null) out.push(["target", `is required for ${a.comparison}`]);
  else if (
    (a.comparison === "greater_than" ||
      a.comparison === "less_than" ||
      a.source === "status_code" ||
      a.source === "response_time") &&
    !isNumeric(target)
  ) {
    out.push(["target", `must be a number (as a string, e.g. "200") for ${a.source} ${a.comparison}`]);
  } else if (a.comparison === "matches") {
    const why = regexProblem(target);
    if (why) out.push(["target", why]);
  }
  return out;
}

/** A decimal number written as a string: `"200"`, `"-1.5"`. */
export const isNumeric = (s: string): boolean => /^-?\d+(\.\d+)?$/.test(s.trim());

/** The property an assertion or an extraction reads (a header name, a JSONPath, …): 1..512 characters, or none. */
export const readProperty = () =>
  z.string().min(1, "must not be empty").max(512, "must be at most 512 characters").nullable().optional();

/** One assertion, with its cross-field rules (a 422 names `assertions[2].target`). */
export const AssertionSchema = z
  .strictObject({
    /** `status_code`, `json_body`, `headers`, `text_body` or `response_time` (ms). */
    source: z.enum(ASSERTION_SOURCES),
    /** `headers`: the header name; `json_body`: a JSONPath (default `$`, the whole body). */
    property: readProperty(),
    /** How the value is compared. */
    comparison: z.enum(ASSERTION_COMPARISONS),
    /** The value compared with, always a string (`"200"`); left out for `is_empty` and `not_empty`. */
    target: z.string().max(1024, "must be at most 1024 characters").nullable().optional(),
  })
  .superRefine((a, ctx) => {
    for (const [path, message] of assertionProblems(a)) ctx.addIssue({ code: "custom", path: [path], message });
  })
  .meta({ id: "Assertion", allOf: documentedAssertionRules() });

/**
 * The rules between an assertion's fields that JSON Schema can state (`if`/`then`), for the
 * document: a target unless the comparison takes none; numeric comparisons of numeric sources;
 * a header name for `headers`. (Patterns and regular expressions stay the server's to judge.)
 */
function documentedAssertionRules(): object[] {
  const numeric = ["status_code", "response_time"];
  return [
    {
      if: { properties: { comparison: { not: { enum: TARGETLESS } } } },
      then: { properties: { target: { type: "string" } }, required: ["target"] },
    },
    {
      if: { properties: { comparison: { enum: TARGETLESS } }, required: ["comparison"] },
      then: { properties: { target: { type: "null" } } },
    },
    {
      if: { properties: { source: { enum: numeric } } },
      then: {
        properties: {
          comparison: { enum: NUMERIC_COMPARISONS },
          target: { pattern: "^\\s*-?\\d+(\\.\\d+)?\\s*$" },
          property: { type: "null" },
        },
      },
    },
    {
      if: { properties: { comparison: { enum: ["greater_than", "less_than"] } }, required: ["comparison"] },
      then: { properties: { target: { pattern: "^\\s*-?\\d+(\\.\\d+)?\\s*$" } } },
    },
    {
      if: { properties: { source: { const: "headers" } } },
      then: {
        properties: { property: { type: "string", pattern: "^[!#$%&'*+.^_`|~0-9A-Za-z-]+$" } },
        required: ["property"],
      },
    },
    {
      if: { properties: { source: { const: "text_body" } } },
      then: {
        properties: { comparison: { not: { enum: ["greater_than", "less_than"] } }, property: { type: "null" } },
      },
    },
  ];
}

/** An assertion as the API stores and returns it: `property` and `target` null when absent. */
export interface StoredAssertion {
  source: AssertionSource;
  property: string | null;
  comparison: AssertionComparison;
  target: string | null;
}

type Numeric = "equals" | "not_equals" | "greater_than" | "less_than";
type Textual = Exclude<AssertionComparison, "greater_than" | "less_than">;
/**
 * An assertion as a program declares it: a union discriminated by `source`, so the editor offers
 * only the comparisons (and `property`) that source takes. Targets are strings.
 */
export type Assertion =
  | { source: "status_code" | "response_time"; comparison: Numeric; target: string; property?: null }
  | { source: "headers"; property: string; comparison: AssertionComparison; target?: string | null }
  | { source: "json_body"; property?: string | null; comparison: AssertionComparison; target?: string | null }
  | { source: "text_body"; comparison: Textual; target?: string | null; property?: null };

/**
 * The normal form of a list of assertions: order kept (it is the order of evaluation and of the
 * results), absent `property`/`target` as null, header names lower-cased.
 */
export function normalizeAssertions(list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((a: unknown) => {
    if (!a || typeof a !== "object") return a;
    const { source, property, comparison, target } = a as Record<string, unknown>;
    const name = typeof property === "string" && source === "headers" ? property.toLowerCase() : (property ?? null);
    return { source, property: name, comparison, target: target ?? null };
  });
}

/** The writable fields: assertions and the response-time thresholds. */
/** The slowest response a threshold (`degraded_response_ms`, `max_response_ms`) may name, in ms. */
export const MAX_RESPONSE_MS = 60_000;

/** A response-time threshold in ms, 1..{@link MAX_RESPONSE_MS}, or null (none). */
const responseMs = () =>
  z
    .int("must be a whole number of milliseconds")
    .min(1, `must be between 1 and ${MAX_RESPONSE_MS}`)
    .max(MAX_RESPONSE_MS, `must be between 1 and ${MAX_RESPONSE_MS}`)
    .nullable();

export const assertionFields = {
  /** http, keyword, grpc, websocket, udp, ping, smtp and domain monitors: checks of each response, in order (at most 20). */
  assertions: z.array(AssertionSchema).max(MAX_ASSERTIONS, `must have at most ${MAX_ASSERTIONS} assertions`),
  /** Slower than this (ms) is `degraded`: up, no incident, shown apart. Null: never. */
  degraded_response_ms: responseMs(),
  /** Slower than this (ms) is a failed check. Null: only the timeout. */
  max_response_ms: responseMs(),
};

/** Their defaults: no assertions, no thresholds (monitors stored before them read so too). */
export const ASSERTION_DEFAULTS: Readonly<{
  assertions: StoredAssertion[];
  degraded_response_ms: number | null;
  max_response_ms: number | null;
}> = Object.freeze({
  assertions: [],
  degraded_response_ms: null,
  max_response_ms: null,
});

/** Assertions as reads return them: every field present. A new schema at each call. */
export function storedAssertions() {
  return z.array(
    z.object({
      source: z.enum(ASSERTION_SOURCES),
      property: z.string().nullable(),
      comparison: z.enum(ASSERTION_COMPARISONS),
      target: z.string().nullable(),
    }),
  );
}

/** The read schema of those fields. */
export const assertionRead = {
  assertions: storedAssertions(),
  degraded_response_ms: z.int().nullable(),
  max_response_ms: z.int().nullable(),
};

/** The field-table rows (api/monitor.ts spreads them into `MONITOR_FIELDS`). */
export const ASSERTION_ROWS = {
  /** http and keyword monitors: checks of each response, in order, e.g. `{ source: "json_body", property: "$.status", comparison: "equals", target: "ok" }`. */
  assertions: {
    api: "assertions",
    type: {
      type: "array",
      items: objectType(
        "Assertion",
        "A check of each response: its `source` (and `property`) compared with `target`.",
        {
          source: { type: "string", enum: ASSERTION_SOURCES, description: "What is read from the response." },
          property: {
            type: "string",
            nullable: true,
            description:
              "`json_body`: a JSONPath such as `$.status`; `headers`: the header name; none for other sources.",
          },
          comparison: {
            type: "string",
            enum: ASSERTION_COMPARISONS,
            description: "How the value read compares with `target`.",
          },
          target: {
            type: "string",
            nullable: true,
            description: 'The value compared with, always a string (`"200"`); none for `is_empty` and `not_empty`.',
          },
        },
        ["source", "comparison"],
      ),
    },
    normal: "assertions",
    description:
      'http, keyword, grpc, websocket, udp, ping, smtp and domain monitors: checks of each response, in order (at most 20); see "Assertions".',
    default: [],
  },
  /** Slower than this many ms is `degraded` (up, no incident). Default none. */
  degradedResponseMs: nullableField(
    "degraded_response_ms",
    "integer",
    `Slower than this many ms is \`degraded\`: up, no incident, counted apart; 1..${MAX_RESPONSE_MS}.`,
  ),
  /** Slower than this many ms is a failed check. Default none (the timeout only). */
  maxResponseMs: nullableField(
    "max_response_ms",
    "integer",
    `Slower than this many ms fails the check; 1..${MAX_RESPONSE_MS}, above \`degradedResponseMs\`.`,
  ),
} as const satisfies FieldTable;

/**
 * Cross-field rules of these fields on the whole monitor. Which types take assertions at all is
 * their descriptors' (api/monitor-types), judged in monitor-rules.ts.
 */
export function assertionViolations(m: {
  type: string;
  degraded_response_ms: number | null;
  max_response_ms: number | null;
  timeout_sec: number;
}): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  for (const field of ["degraded_response_ms", "max_response_ms"] as const) {
    if (m[field] !== null && m.type === "heartbeat")
      out.push({ field, message: "is not allowed for heartbeat monitors (they are pinged, not probed)" });
  }
  if (m.degraded_response_ms !== null && m.max_response_ms !== null && m.degraded_response_ms >= m.max_response_ms) {
    out.push({ field: "degraded_response_ms", message: `must be less than max_response_ms (${m.max_response_ms})` });
  }
  return out;
}

/** An error for each assertion whose `source` is not among those `type` reads. */
export function assertionSourceViolations(
  type: string,
  sources: readonly AssertionSource[],
  assertions: readonly unknown[],
): { field: string; message: string }[] {
  return assertions.flatMap((a, i) => {
    const source = (a as { source?: string } | null)?.source;
    return source !== undefined && !(sources as readonly string[]).includes(source)
      ? [{ field: `assertions[${i}].source`, message: `must be one of ${sources.join(", ")} for ${type} monitors` }]
      : [];
  });
}
