/**
 * The example programs of the API docs: the very files the engine tests deploy, never copies.
 * A page shows, per language, the statements of those programs that declare its resource or
 * call its function, and links the whole program.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parse, stringify } from "yaml";

/** One language's example programs (paths from the repository root). */
export interface ExampleSource {
  language: string;
  fence: string;
  paths: readonly string[];
  /** How the language writes a declaration of resource `name`, or a call of function `name`. */
  pattern(name: string, isFunction: boolean): RegExp;
}

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The languages of the docs, in the order the pages show them. */
export const EXAMPLE_SOURCES: readonly ExampleSource[] = [
  {
    language: "TypeScript",
    fence: "ts",
    // The dynamic resources' programs (the drift, scheduled-jobs, lookups and monitor-group engine tests deploy them).
    paths: [
      "examples/full-stack/index.ts",
      "examples/scheduled-jobs/index.ts",
      "test/engine/programs/lookups/index.ts",
      "test/engine/programs/monitor-group/index.ts",
    ],
    pattern: (name, fn) => new RegExp(fn ? `\\buptime\\.${escape(name)}\\(` : `new uptime\\.${escape(name)}\\(`),
  },
  {
    language: "JavaScript",
    fence: "js",
    // A program on the plugin's Node.js SDK (no dynamic resources), deployed by the native-nodejs engine test.
    paths: ["test/engine/programs/native-nodejs/index.js"],
    pattern: (name, fn) =>
      new RegExp(fn ? `\\buptime\\.${escape(name)}(Output)?\\(` : `new uptime\\.${escape(name)}\\(`),
  },
  {
    language: "Python",
    fence: "python",
    paths: [
      "test/engine/programs/native-python/__main__.py",
      "test/engine/programs/native-monitor-group-python/__main__.py",
    ],
    pattern: (name, fn) => new RegExp(`\\buptime\\.${escape(fn ? snake(name) : name)}(_output)?\\(`),
  },
  {
    language: "Go",
    fence: "go",
    // Go's generator names a function `getX` `LookupX`.
    paths: ["examples/native-go/main.go", "test/engine/programs/native-monitor-group-go/main.go"],
    pattern: (name, fn) =>
      new RegExp(`\\buptime\\.${fn ? `Lookup${escape(name.slice(3))}(Output)?` : `New${escape(name)}`}\\(`),
  },
  {
    language: "YAML",
    fence: "yaml",
    paths: ["test/engine/programs/native-yaml/Pulumi.yaml", "test/engine/programs/native-monitor-group/Pulumi.yaml"],
    pattern: () => /$^/,
  },
];

/** The example files that exist (the Go program may not yet), with their text. */
export function exampleFiles(root: string): { source: ExampleSource; path: string; text: string }[] {
  return EXAMPLE_SOURCES.flatMap((source) =>
    source.paths
      .filter((p) => existsSync(join(root, p)))
      .map((path) => ({ source, path, text: readFileSync(join(root, path), "utf8") })),
  );
}

/** The statement that starts on the line of `index`: through the call's closing parenthesis, with the comment lines just above. */
function statementAt(text: string, index: number): string {
  let start = text.lastIndexOf("\n", index) + 1;
  const open = text.indexOf("(", index);
  let depth = 0;
  let end = open;
  for (; end < text.length; end++) {
    if (text[end] === "(") depth++;
    else if (text[end] === ")" && --depth === 0) break;
  }
  const lineEnd = text.indexOf("\n", end);
  for (;;) {
    const prev = text.lastIndexOf("\n", start - 2) + 1;
    if (start === 0 || !/^\s*(\/\/|#)/.test(text.slice(prev, start))) break;
    start = prev;
  }
  return text.slice(start, lineEnd < 0 ? text.length : lineEnd).replace(/\s+$/, "");
}

/** A YAML program's resources of type `token` and variables invoking it, as YAML. */
function yamlExcerpt(text: string, token: string): string {
  const program = parse(text) as {
    resources?: Record<string, { type?: string }>;
    variables?: Record<string, Record<string, { function?: string }>>;
  };
  const resources = Object.entries(program.resources ?? {}).filter(([, r]) => r.type === token);
  const variables = Object.entries(program.variables ?? {}).filter(([, v]) => v?.["fn::invoke"]?.function === token);
  const parts = [
    ...(resources.length ? [stringify({ resources: Object.fromEntries(resources) })] : []),
    ...(variables.length ? [stringify({ variables: Object.fromEntries(variables) })] : []),
  ];
  return parts.join("\n").replace(/\s+$/, "");
}

/** Per example file: the excerpts that use `name` (`Monitor`, `getMonitorStats`). */
export function excerpts(
  file: { source: ExampleSource; text: string },
  name: string,
  token: string,
): string | undefined {
  const isFunction = /^get[A-Z]/.test(name);
  if (file.source.fence === "yaml") return yamlExcerpt(file.text, token) || undefined;
  const re = new RegExp(file.source.pattern(name, isFunction).source, "g");
  const found = [...file.text.matchAll(re)].map((m) => statementAt(file.text, m.index));
  return found.length ? [...new Set(found)].join("\n\n") : undefined;
}
