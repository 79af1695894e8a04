import { describe, expect, it } from "vitest";
import { countKinds, parseFailures, statedTotal } from "./schemathesis-report";

/** A report in Schemathesis 4's text form: allowed failures and one that is not. */
const REPORT = `
=================================== FAILURES ===================================
_____________________________ GET /api/v1/channels _____________________________
1. Test Case ID: Vm83Le

- ST202 Schema-valid request rejected

[422] Unprocessable Content:

    \`{"ok":false,"error":{"code":"validation_failed","message":"x","request_id":"r","details":[{"field":"cursor","message":"is not a cursor returned by this API"}]}}\`

_______________________ POST /api/v1/channels/{id}/test ________________________
1. Test Case ID: RgMCK2

- ST101 Server error

[502] Bad Gateway:

    \`{"ok":false,"error":{"code":"delivery_failed","message":"Delivery failed","request_id":"r"}}\`

____________________________ POST /api/v1/monitors _____________________________
1. Test Case ID: xx1YvJ

- ST202 Schema-valid request rejected

[422] Unprocessable Content:

    \`{"ok":false,"error":{"code":"validation_failed","message":"x","request_id":"r","details":[{"field":"timeout_sec","message":"must be less than interval_sec (30)"},{"field":"keyword","message":"is required for keyword monitors"}]}}\`

_________________________ PATCH /api/v1/monitors/{id} _________________________
1. Test Case ID: Ex9Pr1

- ST202 Schema-valid request rejected

[422] Unprocessable Content:

    \`{"ok":false,"error":{"code":"validation_failed","message":"x","request_id":"r","details":[{"field":"steps[0].extract[1].property","message":"must be a valid RE2 regular expression: missing )"},{"field":"assertions[0].property","message":"must be a JSONPath starting with \\"$\\", e.g. \\"$.status\\""}]}}\`

____________________________ POST /api/v1/monitors _____________________________
1. Test Case ID: zKbJdg

- ST202 Schema-valid request rejected

[422] Unprocessable Content:

    \`{"ok":false,"error":{"code":"validation_failed","message":"x","request_id":"r","details":[{"field":"script","message":"does not parse as JavaScript: Unexpected character '©' at line 1, column 3"}]}}\`

=================================== SUMMARY ====================================
======================= 5 failures, 1 warning in 72.85s =======================
`;

describe("reading a Schemathesis report", () => {
  it("finds every failure and tells the ones no schema can prevent from the rest", () => {
    const failures = parseFailures(REPORT);
    expect(failures.map((f) => [f.operation, f.check.slice(0, 5), f.status, f.kind])).toEqual([
      ["GET /api/v1/channels", "ST202", 422, "cursor"],
      ["POST /api/v1/channels/{id}/test", "ST101", 502, "delivery"],
      // An allowed reason beside one a schema could state is not allowed.
      ["POST /api/v1/monitors", "ST202", 422, "unexplained"],
      ["PATCH /api/v1/monitors/{id}", "ST202", 422, "expression"],
      // A browser script that does not parse: no schema states what JavaScript parses.
      ["POST /api/v1/monitors", "ST202", 422, "expression"],
    ]);
    expect(statedTotal(REPORT)).toBe(5);
    // One failure and nothing else reads "1 failure in …".
    expect(statedTotal("========================= 1 failure in 36.60s ==========================")).toBe(1);
    // No failure, only a warning: none found; no summary at all (a crash) stays unknown.
    expect(statedTotal("============================= 1 warning in 19.27s ==============================")).toBe(0);
    expect(statedTotal("Schemathesis v4.32.5")).toBeUndefined();
    expect(countKinds(failures)).toEqual({
      cursor: 1,
      missing_id: 0,
      delivery: 1,
      order: 0,
      stored_type: 0,
      body_size: 0,
      expression: 2,
      unexplained: 1,
    });
  });
});
