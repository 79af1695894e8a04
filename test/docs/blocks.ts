/**
 * The code blocks of the README and docs/, read with a Markdown lexer (marked), each with its
 * file, line, language and the HTML comment just before it, which says how a test uses it:
 *
 * - `<!-- fragment: DECLARATIONS -->`: a TypeScript block that is part of a program; it is
 *   type-checked inside a wrapper that declares what it uses (the declarations) and runs it in an
 *   async function (so `await` works). Without the comment a TypeScript block must be a whole
 *   module (with its imports).
 * - `<!-- test: NAME -->`: shell commands the quickstart test runs, in order, in a fresh folder.
 * - `<!-- file: NAME -->`: a file that test writes (in the folder the commands are in).
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Token, Tokens } from "marked" with { "resolution-mode": "import" };

/** marked is an ES module: loaded once, by the first read. */
let marked: Promise<typeof import("marked", { with: { "resolution-mode": "import" } })> | undefined;

/** One fenced code block. */
export interface DocBlock {
  /** Path from the repository root. */
  file: string;
  /** Line of the opening fence (1-based). */
  line: number;
  lang: string;
  code: string;
  /** The text of the HTML comment just before the block (`fragment: …`, `test: …`), if any. */
  marker?: string;
}

/** The Markdown files of the docs: README.md and every `.md` under docs/. */
export function docFiles(root: string): string[] {
  const docs = readdirSync(join(root, "docs"), { recursive: true, encoding: "utf8" })
    .filter((f) => f.endsWith(".md"))
    .map((f) => join("docs", f));
  return ["README.md", ...docs.sort()];
}

/** The code blocks of one Markdown text, in order, nested ones (in lists) included. */
export async function blocksOf(file: string, text: string): Promise<DocBlock[]> {
  marked ??= import("marked");
  const { lexer } = await marked;
  const out: DocBlock[] = [];
  let from = 0;
  const visit = (tokens: Token[]) => {
    let marker: string | undefined;
    for (const token of tokens) {
      if (token.type === "html") {
        marker = /^<!--\s*([\s\S]*?)\s*-->\s*$/.exec(token.raw.trim())?.[1];
        continue;
      }
      if (token.type === "code") {
        const code = token as Tokens.Code;
        const at = text.indexOf(code.raw, from);
        from = at >= 0 ? at + code.raw.length : from;
        out.push({
          file,
          line: text.slice(0, Math.max(0, at)).split("\n").length,
          lang: (code.lang ?? "").split(/\s/)[0] ?? "",
          code: code.text,
          marker,
        });
      } else {
        const nested = (token as { tokens?: Token[]; items?: Token[] }).items ?? (token as { tokens?: Token[] }).tokens;
        if (nested) visit(nested);
      }
      if (token.type !== "space") marker = undefined;
    }
  };
  visit(lexer(text));
  return out;
}

/** Every code block of the README and docs/. */
export async function docBlocks(root: string): Promise<DocBlock[]> {
  const perFile = await Promise.all(docFiles(root).map((f) => blocksOf(f, readFileSync(join(root, f), "utf8"))));
  return perFile.flat();
}

/** `docs/x.md:12`, for messages. */
export const where = (b: DocBlock) => `${b.file}:${b.line}`;
