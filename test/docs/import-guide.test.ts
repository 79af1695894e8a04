import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";

const TOOLS = join(REPO_ROOT, "tools");
const guide = () => readFileSync(join(REPO_ROOT, "docs/guides/import.md"), "utf8").replace(/\s+/g, " ");
const sources = (host: string) =>
  readdirSync(join(TOOLS, host))
    .filter((f) => f.endsWith(".go") || f === "go.mod")
    .map((f) => readFileSync(join(TOOLS, host, f), "utf8"))
    .join("\n");

describe("the import guide on the language hosts this project builds", () => {
  it("says which hosts cannot generate code, and the version of each built from upstream", () => {
    // Our own hosts (a main.go of their own) implement no GenerateProgram; upstream's are pinned in go.mod.
    for (const host of ["pulumi-language-nodejs", "pulumi-language-go"])
      expect(sources(host)).not.toContain("GenerateProgram");
    expect(guide()).toContain("its own Node.js and Go hosts, which run programs and do nothing else");
    const python = /github\.com\/pulumi\/pulumi\/sdk\/v3 v(\d+\.\d+)\.\d+/.exec(sources("pulumi-language-python"))?.[1];
    expect(guide()).toContain(`Python's (v${python},`);
    expect(guide()).toContain("`GenerateProgram not implemented`");
    expect(guide()).not.toMatch(/Node\.js language hosts? this project builds \(v3\.68\)/);
  });
});
