import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";

const pkg = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")) as {
  allowScripts?: Record<string, boolean>;
};

describe("install scripts declared for npm's allowScripts", () => {
  it("allows the scripts that install Node 24 and esbuild's binary", () => {
    // Without node's preinstall, node_modules/.bin/node (Node 24) is missing and every npm script
    // falls back to the system's older node.
    expect(pkg.allowScripts).toMatchObject({ node: true, esbuild: true });
  });

  it("leaves no installed package with an install script unreviewed", () => {
    const out = execFileSync("npm", ["install-scripts", "ls"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    expect(out.trim()).toBe("No packages with unreviewed install scripts.");
  });
});
