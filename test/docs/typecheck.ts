/**
 * Type-checks the TypeScript blocks of the docs with the TypeScript compiler API, against a
 * node_modules holding the packed packages, under the compiler options of Pulumi's TypeScript
 * template (every example program's tsconfig.json has them). One program for all blocks.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import ts from "typescript";
import { type DocBlock, where } from "./blocks";

/** The languages that are TypeScript. */
export const TS_LANGS = new Set(["ts", "typescript"]);

/** What every fragment may use without declaring it. */
const DEFAULT_IMPORTS: Record<string, string> = {
  pulumi: 'import * as pulumi from "@pulumi/pulumi";',
  uptime: 'import * as uptime from "pulumi-uptime";',
};

/** The source a block is compiled as, and the line of the wrapper where the block's first line is. */
export function moduleOf(block: DocBlock): { source: string; firstLine: number } {
  const fragment = /^fragment:\s*([\s\S]*)$/.exec(block.marker ?? "");
  if (!fragment) return { source: block.code, firstLine: 0 };
  const lines = block.code.split("\n");
  // Imports move to the top; their lines stay, empty, so error lines still point into the block.
  const imports = lines.filter((l) => /^import\s/.test(l));
  const body = lines.map((l) => (/^import\s/.test(l) ? "" : l));
  const given = Object.entries(DEFAULT_IMPORTS)
    .filter(([name]) => !imports.some((i) => new RegExp(`\\b${name}\\b`).test(i.split(" from ")[0] ?? "")))
    .map(([, line]) => line);
  const head = [...given, ...imports, fragment[1] ?? "", "export async function example(): Promise<void> {"];
  return { source: [...head, ...body, "}", ""].join("\n"), firstLine: head.length };
}

/** Blocks that are neither a whole module (with an import or export) nor marked as fragments. */
export function unmarked(blocks: DocBlock[]): string[] {
  return blocks
    .filter((b) => !/^fragment:/.test(b.marker ?? "") && !/^\s*(import|export)\s/m.test(b.code))
    .map((b) => `${where(b)}: neither a whole program (no import) nor marked <!-- fragment: … -->`);
}

/**
 * The compiler's errors for the blocks, each as `file:line: message` with the line in the
 * Markdown file; empty when every block compiles.
 */
export function typeCheck(blocks: DocBlock[], nodeModules: string, tsconfigPath: string): string[] {
  const dir = mkdtempSync(join(tmpdir(), "pulumi-uptime-docs-ts-"));
  try {
    symlinkSync(nodeModules, join(dir, "node_modules"), "dir");
    mkdirSync(join(dir, "blocks"));
    const files = new Map<string, { block: DocBlock; firstLine: number }>();
    blocks.forEach((block, i) => {
      const { source, firstLine } = moduleOf(block);
      const path = join(dir, "blocks", `block${i}.ts`);
      writeFileSync(path, source);
      files.set(path, { block, firstLine });
    });
    const json = JSON.parse(readFileSync(tsconfigPath, "utf8")) as { compilerOptions: object };
    const { options, errors } = ts.convertCompilerOptionsFromJson(json.compilerOptions, dir);
    if (errors.length) throw new Error(ts.flattenDiagnosticMessageText(errors[0]?.messageText, "\n"));
    const program = ts.createProgram([...files.keys()], { ...options, noEmit: true });
    // Workaround: @pulumi/policy's own index.d.ts (1.21) names members its proxy.d.ts strips as
    // internal, so `tsc` without skipLibCheck fails inside that package whatever a pack says.
    // ts-node, which runs packs, checks only the files it compiles. Drop once its typings compile.
    const ours = (d: ts.Diagnostic) => !d.file?.fileName.includes("/node_modules/@pulumi/policy/");
    return ts
      .getPreEmitDiagnostics(program)
      .filter(ours)
      .map((d) => {
        const text = ts.flattenDiagnosticMessageText(d.messageText, " ");
        const origin = d.file ? files.get(d.file.fileName) : undefined;
        if (!d.file || !origin) return `${d.file?.fileName ?? "tsc"}: TS${d.code}: ${text}`;
        const { line } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
        // +1: the block starts on the line after its opening fence.
        const docLine = origin.block.line + 1 + (line - origin.firstLine);
        return `${origin.block.file}:${docLine}: TS${d.code}: ${text}`;
      });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
