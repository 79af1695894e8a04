/**
 * Reads Schemathesis's text report: each failure, and whether it is one that no schema can
 * prevent. Those are the only failures the API test lets stand (issue 22).
 */

/** The failures no schema can prevent. */
export const UNPREVENTABLE = {
  /** A `cursor` this server never handed out (cursors are opaque by contract). */
  cursor: "an opaque cursor the server never issued",
  /**
   * An id (in the path, or `channel_ids`/`monitor_ids`/an escalation's `channels` in a body) naming
   * nothing of this account, a location in `locations` (or a dry run's `location`) that the account
   * does not have, a dry run's location with no live agent (409), or a component key of an
   * incident's `components` that is not on its page.
   */
  missing_id: "an id (or location, a live agent of it, or a page's component key) that must exist",
  /** A channel test whose delivery really fails: nothing is reachable in the test's network namespace. */
  delivery: "a channel test whose delivery really fails (502)",
  /**
   * `timeout_sec < interval_sec`, and the other orders between two fields of one body, which JSON
   * Schema cannot state: `degraded_response_ms < max_response_ms`, `ends_at` after `starts_at`,
   * `failure_threshold` at most the number of `locations`, an incident rule's `component` or `tag`.
   */
  order:
    "timeout_sec < interval_sec (and the like: degraded < max response time, ends_at after starts_at, failure_threshold <= locations)",
  /**
   * A change valid for some type but not for the stored object's: a PATCH body (or a push token)
   * does not name the type, so no schema can tie its fields to it.
   */
  stored_type: "a PATCH field (or push token) of another type than the stored object's",
  /**
   * A body over the server's size limit (64 KiB), refused as 413 before it is read: JSON Schema
   * bounds each field, not the whole body, whose fields together may exceed it.
   */
  body_size: "a body over the server's 64 KiB limit (413), whatever it holds",
  /**
   * A regular expression that RE2 does not compile, or a JSONPath that is not one (or uses filters
   * or scripts), in an assertion or a step's extraction, or a browser monitor's `script` that does
   * not parse as JavaScript: JSON Schema cannot state what compiles.
   */
  expression: "a regular expression, JSONPath or browser script the checker cannot run",
} as const;
export type Kind = keyof typeof UNPREVENTABLE | "unexplained";

/** One failed check of one test case. */
export interface Failure {
  operation: string;
  check: string;
  status: number | undefined;
  body: string;
  kind: Kind;
}

/** Every failure of the report, each classified. */
export function parseFailures(report: string): Failure[] {
  const out: Failure[] = [];
  const failuresPart = report.split(/^=+ FAILURES =+$/m)[1]?.split(/^=+ (?:WARNINGS|SUMMARY) =+$/m)[0] ?? "";
  for (const section of failuresPart.split(/^_{3,} (?=[A-Z]+ \/)/m).slice(1)) {
    const operation = /^([A-Z]+ \S+)/.exec(section)?.[1] ?? "?";
    for (const testCase of section.split(/^\d+\. Test Case ID: /m).slice(1)) {
      const status = /^\[(\d{3})\]/m.exec(testCase)?.[1];
      const body = /^ {4}`(.*)`$/m.exec(testCase)?.[1] ?? "";
      for (const [, check] of testCase.matchAll(/^- (ST\d+ [^\n]*)$/gm)) {
        const failure = { operation, check: check as string, status: status ? Number(status) : undefined, body };
        out.push({ ...failure, kind: classify(failure) });
      }
    }
  }
  return out;
}

/** The total Schemathesis states in its last line (`12 failures, 1 warning in 72.85s`). */
export function statedTotal(report: string): number | undefined {
  const m = /=+ (\d+) failures?\b.* in [\d.]+s =+/.exec(report);
  if (m) return Number(m[1]);
  // A summary without failures: "N passed", "No issues found", or only warnings ("1 warning in 19.27s").
  return /=+ .*passed.* in [\d.]+s =+|=+ No issues found|=+ \d+ warnings? in [\d.]+s =+/.test(report) ? 0 : undefined;
}

/** Counts of each kind, every kind listed. */
export function countKinds(failures: readonly Failure[]): Record<Kind, number> {
  const counts = {
    cursor: 0,
    missing_id: 0,
    delivery: 0,
    order: 0,
    stored_type: 0,
    body_size: 0,
    expression: 0,
    unexplained: 0,
  };
  for (const f of failures) counts[f.kind] += 1;
  return counts;
}

function classify(f: Omit<Failure, "kind">): Kind {
  let parsed: { error?: { code?: string; message?: string; details?: { field: string; message: string }[] } };
  try {
    parsed = JSON.parse(f.body);
  } catch {
    return "unexplained"; // no body, or a truncated one: nothing shows it is harmless
  }
  const code = parsed.error?.code;
  if (f.status === 404 && code === "not_found") return "missing_id";
  if (f.status === 413 && code === "payload_too_large") return "body_size";
  if (
    f.status === 409 &&
    code === "conflict" &&
    /^POST \/api\/v1\/monitors(\/\{id\})?\/test$/.test(f.operation) &&
    /^Location \S+ has no live agent /.test(parsed.error?.message ?? "")
  )
    return "missing_id";
  if (f.status === 502 && code === "delivery_failed" && /^POST \/api\/v1\/channels\/\{id\}\/test$/.test(f.operation))
    return "delivery";
  if (f.status !== 422 || code !== "validation_failed") return "unexplained";
  const kinds = new Set((parsed.error?.details ?? []).map((d) => detailKind(d, f.operation)));
  if (kinds.size === 0 || kinds.has("unexplained")) return "unexplained";
  // Several harmless reasons at once: counted under the first, in the table's order.
  return (Object.keys(UNPREVENTABLE) as Kind[]).find((k) => kinds.has(k)) ?? "unexplained";
}

/** Fields whose rule is the stored monitor's type (or, for `body`, its stored method; `locations`: not for heartbeat monitors). */
const TYPED_MONITOR_FIELDS =
  /^(locations|url|keyword|assertions|ssl_expiry_days|dns_expected_values(\[\d+\])?|dns_resolver|degraded_response_ms|max_response_ms|body|steps|variables|retry)$/;
/** The status page structure's rules between fields, in the server's words. */
const STRUCTURE_RULE =
  /^(".*" is used by another component of the page|must be empty for a manual component|must name at least 1 monitor \(rule .*\)|is required with rule response-time|is allowed only with rule response-time|must have at most \d+ components in all)$/;

/** Where an assertion or an extraction holds an expression, and the server's words for one that does not run. */
const EXPRESSION_FIELD = /^(steps\[\d+\]\.)?(assertions\[\d+\]\.(target|property)|extract\[\d+\]\.property)$|^script$/;
const EXPRESSION_PROBLEM =
  /^(must be a valid RE2 regular expression|must be a JSONPath starting with|must not use filter or script expressions|does not parse as JavaScript: )/;

function detailKind(d: { field: string; message: string }, operation: string): Kind {
  if (d.field === "cursor" && d.message === "is not a cursor returned by this API") return "cursor";
  if (
    /^(channel_ids|monitor_ids|escalation\[\d+\]\.channels)\[\d+\]$/.test(d.field) &&
    / does not exist$/.test(d.message)
  )
    return "missing_id";
  if (d.field === "timeout_sec" && /^must be less than interval_sec \(\d+\)$/.test(d.message)) return "order";
  if (d.field === "degraded_response_ms" && /^must be less than max_response_ms \(\d+\)$/.test(d.message))
    return "order";
  if (d.field === "ends_at" && /^must be after the start \(/.test(d.message)) return "order";
  if (d.field === "failure_threshold" && /^must be at most the number of locations \(\d+\)$/.test(d.message))
    return "order";
  // A status page's component, named by its key in an incident's `components`, must be on the page.
  if (
    /^(components\.[^.]+|incident_rules\[\d+\]\.component)$/.test(d.field) &&
    /^no component ".*" on the page$/.test(d.message)
  )
    return "missing_id";
  if (/^sections\[\d+\]\.components\[\d+\]\.monitors\[\d+\]$/.test(d.field) && / does not exist$/.test(d.message))
    return "missing_id";
  // A page's structure: keys unique across sections, fields that depend on a component's rule, a
  // total of components: rules between fields (or items), as `order`.
  if (
    /^sections(\[\d+\]\.components\[\d+\]\.(key|monitors|threshold))?$/.test(d.field) &&
    STRUCTURE_RULE.test(d.message)
  )
    return "order";
  // An incident rule names a component or a tag, not both: a rule between two fields, as `order`.
  if (/^incident_rules\[\d+\]$/.test(d.field) && d.message === "must give exactly one of component and tag")
    return "order";
  if (/^locations\[\d+\]$|^location$/.test(d.field) && /^\S+ is not one of the account's locations /.test(d.message))
    return "missing_id";
  if (operation === "PATCH /api/v1/monitors/{id}" && TYPED_MONITOR_FIELDS.test(d.field)) return "stored_type";
  if (EXPRESSION_FIELD.test(d.field) && EXPRESSION_PROBLEM.test(d.message)) return "expression";
  if (operation === "PATCH /api/v1/channels/{id}" && d.field.startsWith("config.")) return "stored_type";
  if (operation === "POST /api/v1/monitors/{id}/push-token" && d.field === "type") return "stored_type";
  return "unexplained";
}
