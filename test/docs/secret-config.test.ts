import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { blocksOf, docFiles } from "./blocks";

/** The README and the guides: the pages a newcomer follows word for word. */
const USER_PAGES = (file: string) => file === "README.md" || file.startsWith("docs/guides/");

describe("secrets a guide's program reads from the stack's config", () => {
  it("each one is set on the same page with `pulumi config set --secret NAME`", async () => {
    const missing: string[] = [];
    for (const file of docFiles(REPO_ROOT).filter(USER_PAGES)) {
      const text = readFileSync(join(REPO_ROOT, file), "utf8");
      for (const block of await blocksOf(file, text)) {
        for (const [, name] of block.code.matchAll(/requireSecret\("([^"]+)"\)/g)) {
          if (!text.includes(`pulumi config set --secret ${name} `))
            missing.push(`${file}:${block.line}: requireSecret("${name}")`);
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
