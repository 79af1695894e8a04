import { describe, expect, it } from "vitest";
import { AssertionSchema, CreateMonitorSchema, issuesToDetails } from "../../../api";
import { AssertionEvaluator } from "../../../server/checker/assertion-pool";
import { type AssertionSpec, evaluateAssertions, type ResponseFacts } from "../../../server/checker/evaluate-worker";

const facts: ResponseFacts = {
  status_code: 200,
  response_time_ms: 120,
  headers: { "content-type": "application/json; charset=utf-8", "x-count": "7", "x-empty": "" },
  body: JSON.stringify({ status: "ok", version: "1.4.2", items: ["a", "b"], count: 3, none: null, empty: [] }),
};

const a = (
  source: string,
  comparison: string,
  target: string | null = null,
  property: string | null = null,
): AssertionSpec => ({
  source,
  property,
  comparison,
  target,
});

/** [assertion, a response it passes on, as the table's row name] — each also fails on `failing`. */
const cases: [string, AssertionSpec, AssertionSpec][] = [
  ["status_code equals", a("status_code", "equals", "200"), a("status_code", "equals", "201")],
  ["status_code not_equals", a("status_code", "not_equals", "500"), a("status_code", "not_equals", "200")],
  ["status_code greater_than", a("status_code", "greater_than", "199"), a("status_code", "greater_than", "200")],
  ["status_code less_than", a("status_code", "less_than", "300"), a("status_code", "less_than", "200")],
  ["response_time less_than", a("response_time", "less_than", "500"), a("response_time", "less_than", "100")],
  ["response_time greater_than", a("response_time", "greater_than", "10"), a("response_time", "greater_than", "1000")],
  ["json_body equals", a("json_body", "equals", "ok", "$.status"), a("json_body", "equals", "down", "$.status")],
  [
    "json_body not_equals",
    a("json_body", "not_equals", "down", "$.status"),
    a("json_body", "not_equals", "ok", "$.status"),
  ],
  [
    "json_body greater_than",
    a("json_body", "greater_than", "2", "$.count"),
    a("json_body", "greater_than", "3", "$.count"),
  ],
  ["json_body less_than", a("json_body", "less_than", "4", "$.count"), a("json_body", "less_than", "3", "$.count")],
  [
    "json_body contains (array)",
    a("json_body", "contains", "b", "$.items"),
    a("json_body", "contains", "c", "$.items"),
  ],
  [
    "json_body not_contains",
    a("json_body", "not_contains", "c", "$.items"),
    a("json_body", "not_contains", "a", "$.items"),
  ],
  ["json_body is_empty", a("json_body", "is_empty", null, "$.empty"), a("json_body", "is_empty", null, "$.items")],
  ["json_body not_empty", a("json_body", "not_empty", null, "$.version"), a("json_body", "not_empty", null, "$.none")],
  [
    "json_body matches",
    a("json_body", "matches", "^1\\.\\d+\\.\\d+$", "$.version"),
    a("json_body", "matches", "^2\\.", "$.version"),
  ],
  ["headers equals", a("headers", "equals", "7", "X-Count"), a("headers", "equals", "8", "x-count")],
  [
    "headers contains",
    a("headers", "contains", "json", "content-type"),
    a("headers", "contains", "xml", "content-type"),
  ],
  ["headers is_empty", a("headers", "is_empty", null, "x-missing"), a("headers", "is_empty", null, "content-type")],
  ["headers not_empty", a("headers", "not_empty", null, "content-type"), a("headers", "not_empty", null, "x-empty")],
  ["headers greater_than", a("headers", "greater_than", "5", "x-count"), a("headers", "greater_than", "9", "x-count")],
  ["text_body contains", a("text_body", "contains", '"status":"ok"'), a("text_body", "contains", "error")],
  ["text_body not_contains", a("text_body", "not_contains", "error"), a("text_body", "not_contains", "status")],
  ["text_body equals", a("text_body", "equals", facts.body), a("text_body", "equals", "ok")],
  ["text_body not_equals", a("text_body", "not_equals", "ok"), a("text_body", "not_equals", facts.body)],
  ["text_body matches", a("text_body", "matches", '(?i)"STATUS"'), a("text_body", "matches", "^ok$")],
  ["text_body not_empty", a("text_body", "not_empty"), a("text_body", "is_empty")],
];

describe("assertions", () => {
  it.each(cases)("%s passes on a matching response and fails otherwise", (_name, passing, failing) => {
    const [pass] = evaluateAssertions([passing], facts);
    const [fail] = evaluateAssertions([failing], facts);
    expect(pass).toMatchObject({ pass: true });
    expect(fail).toMatchObject({ pass: false });
    expect(fail?.target).toBe(failing.target);
  });

  it("keeps the value found beside the expected one", () => {
    const [out] = evaluateAssertions([a("json_body", "equals", "down", "$.status")], facts);
    expect(out).toEqual({
      source: "json_body",
      property: "$.status",
      comparison: "equals",
      target: "down",
      actual: "ok",
      pass: false,
    });
  });

  it("a body that is not JSON fails a json_body assertion with its reason, never an exception", () => {
    const [out] = evaluateAssertions([a("json_body", "equals", "ok", "$.status")], {
      ...facts,
      body: "<html>oops</html>",
    });
    expect(out?.pass).toBe(false);
    expect(out?.reason).toMatch(/^the body is not JSON/);
  });

  it("never runs filter expressions, and the schema refuses them", async () => {
    const parsed = AssertionSchema.safeParse({
      source: "json_body",
      property: "$..[?(@.constructor)]",
      comparison: "not_empty",
    });
    expect(parsed.success).toBe(false);
    // Straight to the evaluator (as a stored row would be): refused, not run.
    const [out] = evaluateAssertions([a("json_body", "not_empty", null, "$..[?(@.x)]")], facts);
    expect(out?.pass).toBe(false);
  });

  it("422 details name the assertion and the field", () => {
    const parsed = CreateMonitorSchema.safeParse({
      name: "n",
      type: "http",
      interval_sec: 60,
      assertions: [
        { source: "status_code", comparison: "equals", target: "200" },
        { source: "nope", comparison: "equals", target: "1" },
        { source: "text_body", comparison: "matches", target: "(unclosed" },
        { source: "status_code", comparison: "greater_than", target: "abc" },
        { source: "json_body", property: "$.a", comparison: "is_empty", target: "x" },
        { source: "headers", comparison: "equals", target: "x" },
        { source: "status_code", comparison: "sounds_like", target: "1" },
      ],
    });
    expect(parsed.success).toBe(false);
    const details = issuesToDetails(parsed.error?.issues ?? []);
    const fields = details.map((d) => d.field);
    expect(fields).toEqual(
      expect.arrayContaining([
        "assertions[1].source",
        "assertions[2].target",
        "assertions[3].target",
        "assertions[4].target",
        "assertions[5].property",
        "assertions[6].comparison",
      ]),
    );
    expect(details.find((d) => d.field === "assertions[2].target")?.message).toMatch(/RE2 regular expression/);
    expect(details.find((d) => d.field === "assertions[3].target")?.message).toMatch(/must be a number/);
  });

  it("a pathological regular expression over 1 MiB is judged off the event loop, within its budget", async () => {
    const evaluator = new AssertionEvaluator(5_000);
    try {
      const body = `${"a".repeat(1024 * 1024 - 1)}!`;
      let ticks = 0;
      let worst = 0;
      let last = performance.now();
      const timer = setInterval(() => {
        const now = performance.now();
        worst = Math.max(worst, now - last);
        last = now;
        ticks++;
      }, 10);
      const [out] = await evaluator.evaluate(
        [{ source: "text_body", property: null, comparison: "matches", target: "^(\\w+\\s?)*$" }],
        { ...facts, body },
      );
      clearInterval(timer);
      // Judged (no reason: the worker ran it to the end), and it does not match.
      expect(out).toMatchObject({ pass: false, actual: expect.any(String) });
      expect(out?.reason).toBeUndefined();
      expect(ticks).toBeGreaterThan(5);
      // The loop kept turning: no gap near the match's own duration (about a second on one core).
      expect(worst).toBeLessThan(250);
    } finally {
      await evaluator.close();
    }
  });

  it("a regular expression past its time budget fails with that reason", async () => {
    const evaluator = new AssertionEvaluator(50);
    try {
      const body = `${"a".repeat(1024 * 1024 - 1)}!`;
      const [out] = await evaluator.evaluate(
        [{ source: "text_body", property: null, comparison: "matches", target: "^(\\w+\\s?)*$" }],
        { ...facts, body },
      );
      expect(out).toMatchObject({ pass: false, reason: "judging took longer than 50 ms" });
    } finally {
      await evaluator.close();
    }
  });
});
