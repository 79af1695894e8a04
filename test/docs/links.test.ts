import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import type { Token } from "marked" with { "resolution-mode": "import" };
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { docFiles } from "./blocks";

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replaceAll(" ", "-");

/** Every link and heading of a Markdown file, nested ones included. */
async function linksAndAnchors(text: string): Promise<{ links: string[]; anchors: Set<string> }> {
  const { lexer } = await import("marked");
  const links: string[] = [];
  const anchors = new Set<string>();
  const visit = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === "link") links.push((t as { href: string }).href);
      if (t.type === "heading") anchors.add(slug((t as { text: string }).text));
      const nested = [(t as { tokens?: Token[] }).tokens, (t as { items?: Token[] }).items, ...((t as { rows?: { tokens: Token[] }[][] }).rows?.flat().map((c) => c.tokens) ?? []), ...((t as { header?: { tokens: Token[] }[] }).header?.map((c) => c.tokens) ?? [])];
      for (const n of nested) if (n) visit(n);
    }
  };
  visit(lexer(text));
  return { links, anchors };
}

describe("the links of the README and docs/", () => {
  it("point at files of the repository and at headings that exist", async () => {
    const broken: string[] = [];
    const pages = new Map<string, Awaited<ReturnType<typeof linksAndAnchors>>>();
    for (const file of docFiles(REPO_ROOT)) pages.set(file, await linksAndAnchors(readFileSync(join(REPO_ROOT, file), "utf8")));
    for (const [file, { links }] of pages) {
      for (const href of links) {
        if (/^(https?|mailto):/.test(href)) continue;
        const [path, anchor] = href.split("#") as [string, string | undefined];
        const target = path ? normalize(join(dirname(file), path)) : file;
        if (!existsSync(join(REPO_ROOT, target))) {
          broken.push(`${file}: ${href} (no ${target})`);
          continue;
        }
        if (!anchor || statSync(join(REPO_ROOT, target)).isDirectory() || !target.endsWith(".md")) continue;
        const targetAnchors = pages.get(target)?.anchors ?? (await linksAndAnchors(readFileSync(join(REPO_ROOT, target), "utf8"))).anchors;
        if (!targetAnchors.has(anchor)) broken.push(`${file}: ${href} (no heading #${anchor} in ${target})`);
      }
    }
    expect(broken).toEqual([]);
  });
});
