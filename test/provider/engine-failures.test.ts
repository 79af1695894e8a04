import { describe, expect, it } from "vitest";
import { browserScriptProblem } from "../../api/browser-script";
import { forEngine } from "../../provider/runtime/engine-failures";

describe("check failures as the engine prints them", () => {
  it("a nested path and a long text go without a property (the engine would print `<nil>` or the text); a short top-level value keeps it", () => {
    const script = "await page.goto('https://shop.example.com/');\nawait page.click('#buy';\n";
    const failures = forEngine(
      [
        { property: "steps[1].url", reason: "steps[1].url: uses {{id}}, which no earlier step extracts" },
        { property: "locations[1]", reason: "eu-west is not one of the account's locations" },
        { property: "script", reason: `script: ${browserScriptProblem(script)}` },
        { property: "intervalSec", reason: "intervalSec: must be between 30 and 86400" },
      ],
      { steps: [{}, {}], locations: ["local", "eu-west"], script, intervalSec: 10 },
    );
    expect(failures).toEqual([
      { property: "", reason: "steps[1].url: uses {{id}}, which no earlier step extracts" },
      { property: "", reason: "locations[1]: eu-west is not one of the account's locations" },
      {
        property: "",
        reason:
          "script: does not parse as JavaScript: Unexpected token at line 2, column 24: `await page.click('#buy';`",
      },
      { property: "intervalSec", reason: "intervalSec: must be between 30 and 86400" },
    ]);
  });

  it("a parse error quotes only its line, cut at 120 characters", () => {
    const long = `const x = [${"1, ".repeat(60)};`;
    const problem = browserScriptProblem(
      `await page.goto("https://a.example");\n${long}\nawait page.close();`,
    ) as string;
    expect(problem).toMatch(
      /^does not parse as JavaScript: Unexpected token at line 2, column \d+: `const x = \[1, 1, .{100,}…`$/,
    );
    expect(problem).not.toContain("page.goto");
  });
});
