import { describe, expect, it } from "vitest";
import { exitCodeOf, formatTest, type MonitorTestRow, reportOf, tagOfFilter } from "../../provider/commands/test";
import { shownTarget } from "../../provider/runtime/test-checks";

const row = (resource: string, outcome: MonitorTestRow["outcome"], failure: string | null = null): MonitorTestRow => ({
  resource,
  target: `http://127.0.0.1:8080/${resource}`,
  outcome,
  failure,
  ms: outcome === "skipped" ? null : 12,
  tags: [],
});

describe("pulumi-uptime test: the table and the exit code", () => {
  it("prints a row per monitor and exits 2 when one fails", () => {
    const report = reportOf("dev", [
      row("b-api", "pass"),
      row("a-json", "fail", 'json_body $.status equals "ok": found "down"'),
      row("c-slow", "degraded"),
      row("d-later", "skipped", "depends on values known after `pulumi up`"),
    ]);
    expect(report.monitors.map((m) => m.resource)).toEqual(["a-json", "b-api", "c-slow", "d-later"]);
    const text = formatTest(report);
    expect(text).toMatch(/^MONITOR\s+TARGET\s+RESULT\s+FAILING ASSERTION\s+TIME$/m);
    expect(text).toMatch(
      /^a-json\s+http:\/\/127\.0\.0\.1:8080\/a-json\s+fail\s+json_body \$\.status equals "ok": found "down"\s+12 ms$/m,
    );
    expect(text).toMatch(/^d-later .* skipped: depends on values known after `pulumi up`\s+-\s+-$/m);
    expect(text).toContain("Stack dev: 1 pass, 1 degraded, 1 fail, 1 skipped.");
    expect([report.passed, exitCodeOf(report)]).toEqual([false, 2]);
  });

  it("exits 0 when every monitor passes or is degraded or skipped, 1 when a dry run could not run", () => {
    expect(
      exitCodeOf(
        reportOf("dev", [row("a", "pass"), row("b", "degraded"), row("c", "skipped"), row("d", "nothing to run")]),
      ),
    ).toBe(0);
    expect(exitCodeOf(reportOf("dev", [row("a", "fail"), row("b", "error", "the dry run could not run")]))).toBe(1);
    expect(formatTest(reportOf("dev", []))).toBe("Stack dev: no monitors to test.\n");
  });

  it("reads --filter tag:NAME, and shows targets without credentials or query", () => {
    expect(tagOfFilter("tag:prod")).toBe("prod");
    expect(tagOfFilter(undefined)).toBeUndefined();
    expect(() => tagOfFilter("prod")).toThrow(/--filter must be tag:NAME/);
    expect(shownTarget("https://user:pw@api.example.com/health?token=s3cret")).toBe("https://api.example.com/health");
    expect(shownTarget("tcp://db.example.com:5432")).toBe("tcp://db.example.com:5432");
  });
});
