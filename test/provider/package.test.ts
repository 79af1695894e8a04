import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = join(__dirname, "..", "..");

/** The SDK's Automation API modules a fresh Node process holds after running `code` (built package). */
function automationModulesAfter(code: string): number {
  const script = `${code}; console.log(Object.keys(require.cache).filter((k) => /@pulumi[\\\\/]pulumi[\\\\/]automation/.test(k)).length)`;
  return Number(execFileSync(process.execPath, ["-e", script], { cwd: ROOT, encoding: "utf8" }).trim());
}

describe("package entry points (built: npm run build)", () => {
  it("require('pulumi-uptime') loads no Automation API module; the drift subpath does", () => {
    expect(automationModulesAfter('require("pulumi-uptime")')).toBe(0);
    expect(automationModulesAfter('require("pulumi-uptime/drift")')).toBeGreaterThan(0);
    expect(
      automationModulesAfter(
        'const d = require("pulumi-uptime/drift"); if (typeof d.detectDrift !== "function") throw 1',
      ),
    ).toBeGreaterThan(0);
  });
});
