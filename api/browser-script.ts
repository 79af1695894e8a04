import { parse, type Node } from "acorn";

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
 * The only module it may load is `@playwright/test`. TypeScript annotations are not accepted.
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

/**
 * The script as a body that runs with `page`, `expect`, `test` and `require` in scope: its imports of
 * `@playwright/test` blanked to spaces, so every line keeps its number. Throws, naming the line,
 * when the script does not parse or imports another module.
 */
export function browserProgram(script: string): string {
  let ast: { body: Node[] };
  try {
    ast = parse(script, { ecmaVersion: "latest", sourceType: "module", allowAwaitOutsideFunction: true, allowReturnOutsideFunction: true, locations: true }) as unknown as { body: Node[] };
  } catch (err) {
    const e = err as SyntaxError & { loc?: { line: number; column: number } };
    const where = e.loc ? `line ${e.loc.line}, column ${e.loc.column + 1}` : "the script";
    throw new Error(`does not parse as JavaScript: ${e.message.replace(/ \(\d+:\d+\)$/, "")} at ${where}`);
  }
  let out = script;
  // Last first, so the offsets of earlier ones still hold.
  for (const node of [...ast.body].reverse()) {
    const n = node as Node & { source?: { value: unknown }; loc?: { start: { line: number } } };
    if (n.type === "ExportNamedDeclaration" || n.type === "ExportDefaultDeclaration" || n.type === "ExportAllDeclaration") {
      throw new Error(`must not export anything (line ${n.loc?.start.line})`);
    }
    if (n.type !== "ImportDeclaration") continue;
    if (n.source?.value !== PLAYWRIGHT_MODULE) {
      throw new Error(`may import only ${PLAYWRIGHT_MODULE}, not ${JSON.stringify(n.source?.value)} (line ${n.loc?.start.line})`);
    }
    const names = script.slice(n.start, n.end).match(/\{([^}]*)\}/)?.[1];
    // `import { test, expect }` becomes `const { test, expect } = require(...)` on the same line.
    const replacement = names === undefined ? "" : `const {${names.replace(/\bas\b/g, ":")}} = require(${JSON.stringify(PLAYWRIGHT_MODULE)});`;
    const original = script.slice(n.start, n.end);
    const padded = replacement.length <= original.length && !original.includes("\n") ? replacement.padEnd(original.length) : keepLines(original, replacement);
    out = out.slice(0, n.start) + padded + out.slice(n.end);
  }
  return out;
}

/** `replacement` on the first line of `original`, followed by as many line breaks as it had. */
function keepLines(original: string, replacement: string): string {
  const breaks = original.split("\n").length - 1;
  const padded = `${replacement}${"\n".repeat(breaks)}`;
  return padded.length >= original.length ? padded : padded + " ".repeat(original.length - padded.length);
}
