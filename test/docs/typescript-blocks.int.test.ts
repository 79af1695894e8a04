import { join } from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { blocksOf, type DocBlock, docBlocks } from "./blocks";
import { TS_LANGS, typeCheck, unmarked } from "./typecheck";

/** Pulumi's TypeScript template options, as every example program has them. */
const TEMPLATE_TSCONFIG = join(REPO_ROOT, "examples", "basic", "tsconfig.json");

/**
 * The generated resource and function pages show excerpts of the example programs, which
 * test/engine/programs-typecheck.int.test.ts compiles whole and test/scripts/docs.test.ts proves
 * are those files' own lines: they are not compiled again here, apart from their program.
 */
const GENERATED = /^docs\/reference\/(resources|functions)\//;

describe("the TypeScript blocks of the README and docs/", () => {
  let blocks: DocBlock[];
  beforeAll(async () => {
    blocks = (await docBlocks(REPO_ROOT)).filter((b) => TS_LANGS.has(b.lang) && !GENERATED.test(b.file));
  });

  it("are whole programs, or say they are fragments", () => {
    expect(blocks.length).toBeGreaterThan(10);
    expect(unmarked(blocks)).toEqual([]);
  });

  it("compile against the packed package under Pulumi's template tsconfig", () => {
    expect(typeCheck(blocks, inject("packedModules"), TEMPLATE_TSCONFIG)).toEqual([]);
  });

  it("fail the check when one stops compiling, naming its file and line", async () => {
    const broken = await blocksOf(
      "docs/broken.md",
      [
        "# A broken example",
        "",
        "```ts",
        'import * as uptime from "pulumi-uptime";',
        'new uptime.Monitor("m", { type: "http", intervalSec: "60" });',
        "```",
        "",
      ].join("\n"),
    );
    const errors = typeCheck(broken, inject("packedModules"), TEMPLATE_TSCONFIG);
    expect(errors).toEqual([expect.stringMatching(/^docs\/broken\.md:5: TS2322: Type 'string' is not assignable/)]);
  });
});
