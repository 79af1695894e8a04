import { parse, type Node } from "acorn";
import { simple } from "acorn-walk";

/**
 * A browser monitor's `script`: JavaScript with Playwright Test's `page` and `expect`, in either of
 * two forms.
 *
 * - A Checkly browser check (a Playwright Test file) as it is:
 *   `const { test, expect } = require("@playwright/test")` or
 *   `import { test, expect } from "@playwright/test"`, then one or more
 *   `test("name", async ({ page }) => { ... })`, with `test.step` and `test.describe`.
 * - A bare body: statements run with `page`, `expect` and top-level `await`.
 *
 * The only module it may load is `@playwright/test`, by `import`, `require()` or `import()` alike.
 * TypeScript annotations are not accepted.
 */

/** The largest script accepted, in bytes of UTF-8. */
export const BROWSER_SCRIPT_LIMIT_BYTES = 65_536;

/** The module a script may import or require. */
export const PLAYWRIGHT_MODULE = "@playwright/test";

/** The name of the script's file in stack traces: a failing line reads `script.js:LINE`. */
export const SCRIPT_FILE = "script.js";

/** Why `script` cannot run, naming the line, or undefined when it parses. */
export function browserScriptProblem(script: string): string | undefined {
  const bytes = Buffer.byteLength(script, "utf8");
  if (bytes > BROWSER_SCRIPT_LIMIT_BYTES) return `must be at most ${BROWSER_SCRIPT_LIMIT_BYTES} bytes (is ${bytes})`;
  try {
    browserProgram(script);
    return undefined;
  } catch (err) {
    return (err as Error).message;
  }
}

/** One change of the script's text: `[start, end)` becomes `text`. */
interface Edit {
  start: number;
  end: number;
  text: string;
}

type Located = Node & { loc?: { start: { line: number } } };

/**
 * The script as a body that runs with `page`, `expect`, `test` and `require` in scope: its imports of
 * `@playwright/test` blanked to spaces (or made `require` calls on the same line), so every line
 * keeps its number. Throws, naming the line, when the script does not parse or loads another
 * module by `import`, `require()` or `import()`.
 */
export function browserProgram(script: string): string {
  let ast: { body: Node[] };
  try {
    ast = parse(script, {
      ecmaVersion: "latest",
      sourceType: "module",
      allowAwaitOutsideFunction: true,
      allowReturnOutsideFunction: true,
      locations: true,
    }) as unknown as { body: Node[] };
  } catch (err) {
    const e = err as SyntaxError & { loc?: { line: number; column: number } };
    const where = e.loc
      ? `line ${e.loc.line}, column ${e.loc.column + 1}${lineText(script, e.loc.line)}`
      : "the script";
    throw new Error(`does not parse as JavaScript: ${e.message.replace(/ \(\d+:\d+\)$/, "")} at ${where}`);
  }
  const edits: Edit[] = [...declarationEdits(script, ast.body), ...callEdits(ast as unknown as Node)];
  let out = script;
  // Last first, so the offsets of earlier ones still hold.
  for (const e of edits.sort((a, b) => b.start - a.start)) out = out.slice(0, e.start) + e.text + out.slice(e.end);
  return out;
}

/** The longest part of a line quoted in a parse error. */
const QUOTED_LINE_CHARS = 120;

/** `: \`the line's text\`` (trimmed, cut at 120 characters), or nothing for an empty line. */
function lineText(script: string, line: number): string {
  const text = (script.split(/\r\n|\r|\n|\u2028|\u2029/)[line - 1] ?? "").trim();
  if (!text) return "";
  return `: \`${text.length > QUOTED_LINE_CHARS ? `${text.slice(0, QUOTED_LINE_CHARS)}…` : text}\``;
}

/** The module a script may not load, in the words of every refusal (with a hint where one helps). */
function refused(name: unknown, node: Located): Error {
  const hint =
    name === "crypto" || name === "node:crypto"
      ? "; the global `crypto` (Web Crypto: randomUUID, getRandomValues, subtle) needs no import"
      : "";
  return new Error(
    `may import only ${PLAYWRIGHT_MODULE}, not ${JSON.stringify(name)} (line ${node.loc?.start.line})${hint}`,
  );
}

/** `import … from "@playwright/test"` as `const {…} = require(…)` on its own lines; any other import or export refused. */
function declarationEdits(script: string, body: Node[]): Edit[] {
  const edits: Edit[] = [];
  for (const node of body) {
    const n = node as Located & { source?: { value: unknown } };
    if (
      n.type === "ExportNamedDeclaration" ||
      n.type === "ExportDefaultDeclaration" ||
      n.type === "ExportAllDeclaration"
    ) {
      throw new Error(`must not export anything (line ${n.loc?.start.line})`);
    }
    if (n.type !== "ImportDeclaration") continue;
    if (n.source?.value !== PLAYWRIGHT_MODULE) throw refused(n.source?.value, n);
    const original = script.slice(n.start, n.end);
    const names = original.match(/\{([^}]*)\}/)?.[1];
    // `import { test, expect }` becomes `const { test, expect } = require(...)` on the same line.
    const replacement =
      names === undefined
        ? ""
        : `const {${names.replace(/\bas\b/g, ":")}} = require(${JSON.stringify(PLAYWRIGHT_MODULE)});`;
    const text =
      replacement.length <= original.length && !original.includes("\n")
        ? replacement.padEnd(original.length)
        : keepLines(original, replacement);
    edits.push({ start: n.start, end: n.end, text });
  }
  return edits;
}

/** The module name of `require(x)` or `import(x)`: a string literal or a template without expressions. */
function moduleName(arg: Node | undefined): { name: string } | undefined {
  const a = arg as
    (Node & { value?: unknown; expressions?: unknown[]; quasis?: { value: { cooked: string } }[] }) | undefined;
  if (a?.type === "Literal" && typeof a.value === "string") return { name: a.value };
  if (a?.type === "TemplateLiteral" && a.expressions?.length === 0) return { name: a.quasis?.[0]?.value.cooked ?? "" };
  return undefined;
}

/**
 * `require(…)` and `import(…)` anywhere in the script: of `@playwright/test` only, named by a
 * string. `import("@playwright/test")` becomes a promise of its `require` (the script runs as a
 * function, where `import()` has no loader).
 */
function callEdits(ast: Node): Edit[] {
  const edits: Edit[] = [];
  const judge = (node: Located, arg: Node | undefined, how: string) => {
    const named = moduleName(arg);
    if (!named)
      throw new Error(
        `${how} must name its module as a string, and may load only ${PLAYWRIGHT_MODULE} (line ${node.loc?.start.line})`,
      );
    if (named.name !== PLAYWRIGHT_MODULE) throw refused(named.name, node);
  };
  simple(ast, {
    CallExpression(node) {
      const callee = node.callee as Node & { name?: string };
      if (callee.type === "Identifier" && callee.name === "require")
        judge(node as Located, node.arguments[0] as Node | undefined, "require()");
    },
    ImportExpression(node) {
      judge(node as Located, node.source, "import()");
      edits.push({
        start: node.start,
        end: node.end,
        text: `Promise.resolve(require(${JSON.stringify(PLAYWRIGHT_MODULE)}))`,
      });
    },
  });
  return edits;
}

/** `replacement` on the first line of `original`, followed by as many line breaks as it had. */
function keepLines(original: string, replacement: string): string {
  const breaks = original.split("\n").length - 1;
  const padded = `${replacement}${"\n".repeat(breaks)}`;
  return padded.length >= original.length ? padded : padded + " ".repeat(original.length - padded.length);
}
