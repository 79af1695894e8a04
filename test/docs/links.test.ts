import { existsSync, readFileSync, statSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import type { Token } from "marked" with { "resolution-mode": "import" };
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { REPOSITORY_BLOB } from "../../scripts/packages";
import { docFiles } from "./blocks";

/** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces as `-`. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, "")
    .replaceAll(" ", "-");

/** The repository's address, under which `blob/main/…` and `tree/main/…` name its files and folders. */
const REPOSITORY = REPOSITORY_BLOB.replace(/\/blob\/main$/, "");
/** A path of the repository that a user of the npm packages does not have: the tests and the examples. */
const REPOSITORY_ONLY = /^(test|examples)\//;

/**
 * The places a guide sends its reader into the repository's tests or examples: relative links
 * there, and paths there written as code outside a link (a newcomer with the npm packages has
 * neither); and links to the repository's address naming a path that does not exist.
 */
async function repositoryOnlyMentions(file: string, text: string): Promise<string[]> {
  const { lexer } = await import("marked");
  const found: string[] = [];
  const visit = (tokens: Token[], inLink: boolean) => {
    for (const t of tokens) {
      if (t.type === "link") {
        const href = (t as { href: string }).href;
        const inRepository = href.startsWith(`${REPOSITORY}/`)
          ? /^\/(?:blob|tree)\/main\/([^#]+)/.exec(href.slice(REPOSITORY.length))?.[1]
          : undefined;
        if (inRepository !== undefined && !existsSync(join(REPO_ROOT, inRepository)))
          found.push(`${file}: ${href} (no ${inRepository} in the repository)`);
        if (
          !/^(https?|mailto):/.test(href) &&
          REPOSITORY_ONLY.test(normalize(join(dirname(file), href.split("#")[0] as string)))
        )
          found.push(`${file}: relative link ${href}`);
      }
      if (t.type === "codespan" && !inLink && REPOSITORY_ONLY.test((t as { text: string }).text))
        found.push(`${file}: \`${(t as { text: string }).text}\` is not a link to the repository`);
      const nested = [
        (t as { tokens?: Token[] }).tokens,
        (t as { items?: Token[] }).items,
        ...((t as { rows?: { tokens: Token[] }[][] }).rows?.flat().map((c) => c.tokens) ?? []),
        ...((t as { header?: { tokens: Token[] }[] }).header?.map((c) => c.tokens) ?? []),
      ];
      for (const n of nested) if (n) visit(n, inLink || t.type === "link");
    }
  };
  visit(lexer(text), false);
  return found;
}

/** The pages a user of the npm packages reads: the README (the provider package's page) and the guides. */
const USER_PAGES = (file: string) => file === "README.md" || file.startsWith("docs/guides/");

/** Every link and heading of a Markdown file, nested ones included. */
async function linksAndAnchors(text: string): Promise<{ links: string[]; anchors: Set<string> }> {
  const { lexer } = await import("marked");
  const links: string[] = [];
  const anchors = new Set<string>();
  const visit = (tokens: Token[]) => {
    for (const t of tokens) {
      if (t.type === "link") links.push((t as { href: string }).href);
      if (t.type === "heading") anchors.add(slug((t as { text: string }).text));
      const nested = [
        (t as { tokens?: Token[] }).tokens,
        (t as { items?: Token[] }).items,
        ...((t as { rows?: { tokens: Token[] }[][] }).rows?.flat().map((c) => c.tokens) ?? []),
        ...((t as { header?: { tokens: Token[] }[] }).header?.map((c) => c.tokens) ?? []),
      ];
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
    for (const file of docFiles(REPO_ROOT))
      pages.set(file, await linksAndAnchors(readFileSync(join(REPO_ROOT, file), "utf8")));
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
        const targetAnchors =
          pages.get(target)?.anchors ?? (await linksAndAnchors(readFileSync(join(REPO_ROOT, target), "utf8"))).anchors;
        if (!targetAnchors.has(anchor)) broken.push(`${file}: ${href} (no heading #${anchor} in ${target})`);
      }
    }
    expect(broken).toEqual([]);
  });

  it("send a user of the npm packages to the repository's address for its tests and examples, never relatively", async () => {
    const found: string[] = [];
    for (const file of docFiles(REPO_ROOT).filter(USER_PAGES))
      found.push(...(await repositoryOnlyMentions(file, readFileSync(join(REPO_ROOT, file), "utf8"))));
    expect(found).toEqual([]);
  });
});
