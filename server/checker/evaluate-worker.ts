/**
 * Judges a response against a monitor's assertions. It runs in a worker thread (see
 * assertion-pool.ts) when a body is judged, so a slow regular expression over a large body never
 * holds up the checker's event loop; it imports nothing of the project's own, so the worker can
 * load this file alone.
 */
import { JSONPath } from "jsonpath-plus";
import { RE2JS } from "re2js";

/** One assertion as stored (see api/assertions.ts). */
export interface AssertionSpec {
  source: string;
  property: string | null;
  comparison: string;
  target: string | null;
}

/** What a response showed, as the assertions read it. */
export interface ResponseFacts {
  status_code: number;
  response_time_ms: number;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body as read (up to the documented limit); null when it was not read. */
  body: string | null;
}

/** The outcome of one assertion: what was found, what was expected, and whether it passed. */
export interface AssertionOutcome extends AssertionSpec {
  /** The value found, as text (cut to 200 characters); null when there was none. */
  actual: string | null;
  pass: boolean;
  /** Why it could not be judged (a body that is not JSON, a value that is not a number). */
  reason?: string;
}

/** Longest `actual` kept in a heartbeat. */
const ACTUAL_MAX = 200;
const NUMBER = /^-?\d+(\.\d+)?$/;

const text = (v: unknown): string | null =>
  v === undefined || v === null ? null : typeof v === "string" ? v : JSON.stringify(v);
const numberOf = (v: unknown): number | undefined =>
  typeof v === "number" ? v : typeof v === "string" && NUMBER.test(v.trim()) ? Number(v) : undefined;
const isEmpty = (v: unknown): boolean =>
  v === undefined ||
  v === null ||
  v === "" ||
  (Array.isArray(v) && v.length === 0) ||
  (typeof v === "object" && Object.keys(v as object).length === 0);

type Parsed = { ok: true; json: unknown } | { ok: false; reason: string };

/** Every assertion judged in order; never throws (a failure to judge is a failed assertion with a reason). */
export function evaluateAssertions(assertions: readonly AssertionSpec[], facts: ResponseFacts): AssertionOutcome[] {
  let parsed: Parsed | undefined;
  const json = (): Parsed => (parsed ??= parseJson(facts.body));
  return assertions.map((a) => {
    try {
      return judge(a, facts, json);
    } catch (err) {
      return { ...a, actual: null, pass: false, reason: (err as Error).message };
    }
  });
}

/** The piscina task: `{ assertions, facts }` in, outcomes out. */
export function evaluateTask(task: { assertions: AssertionSpec[]; facts: ResponseFacts }): AssertionOutcome[] {
  return evaluateAssertions(task.assertions, task.facts);
}

function parseJson(body: string | null): Parsed {
  if (body === null) return { ok: false, reason: "the body was not read" };
  try {
    return { ok: true, json: JSON.parse(body) };
  } catch (err) {
    return { ok: false, reason: `the body is not JSON (${(err as Error).message})` };
  }
}

function valueOf(a: AssertionSpec, facts: ResponseFacts, json: () => Parsed): { value: unknown } | { reason: string } {
  switch (a.source) {
    case "status_code":
      return { value: facts.status_code };
    case "response_time":
      return { value: facts.response_time_ms };
    case "headers":
      return { value: facts.headers[(a.property ?? "").toLowerCase()] };
    case "text_body":
      return facts.body === null ? { reason: "the body was not read" } : { value: facts.body };
    case "json_body": {
      const p = json();
      if (!p.ok) return { reason: p.reason };
      // eval: false — filter and script expressions are refused, never run.
      const found = JSONPath({ path: a.property ?? "$", json: p.json as object, eval: false, wrap: true }) as unknown[];
      return { value: found.length === 0 ? undefined : found.length === 1 ? found[0] : found };
    }
    default:
      return { reason: `unknown source ${a.source}` };
  }
}

function judge(a: AssertionSpec, facts: ResponseFacts, json: () => Parsed): AssertionOutcome {
  const found = valueOf(a, facts, json);
  if ("reason" in found) return { ...a, actual: null, pass: false, reason: found.reason };
  const actualText = text(found.value);
  const actual = actualText === null ? null : actualText.slice(0, ACTUAL_MAX);
  const verdict = compare(a.comparison, found.value, actualText, a.target ?? "");
  return typeof verdict === "string" ? { ...a, actual, pass: false, reason: verdict } : { ...a, actual, pass: verdict };
}

/** Whether the value passes; a string says why it cannot be judged. */
function compare(comparison: string, value: unknown, actual: string | null, target: string): boolean | string {
  const n = numberOf(value);
  const t = numberOf(target);
  switch (comparison) {
    case "equals":
      return n !== undefined && t !== undefined ? n === t : actual === target;
    case "not_equals":
      return n !== undefined && t !== undefined ? n !== t : actual !== target;
    case "greater_than":
    case "less_than":
      if (n === undefined)
        return `${actual === null ? "no value" : JSON.stringify(actual.slice(0, 40))} is not a number`;
      if (t === undefined) return `target ${JSON.stringify(target)} is not a number`;
      return comparison === "greater_than" ? n > t : n < t;
    case "contains":
      return Array.isArray(value) ? value.some((v) => text(v) === target) : (actual ?? "").includes(target);
    case "not_contains":
      return !(Array.isArray(value) ? value.some((v) => text(v) === target) : (actual ?? "").includes(target));
    case "is_empty":
      return isEmpty(value);
    case "not_empty":
      return !isEmpty(value);
    case "matches":
      // RE2: linear in the input, no backtracking.
      return actual !== null && RE2JS.compile(target).matcher(actual).find();
    default:
      return `unknown comparison ${comparison}`;
  }
}
