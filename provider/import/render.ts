import { Code, type ImportedProgram } from "./declare";

const IDENT = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A value as TypeScript source: literals as JSON, `Code` as written. */
export function literal(value: unknown, indent = ""): string {
  if (value instanceof Code) return value.text;
  if (Array.isArray(value)) return `[${value.map((v) => literal(v, indent)).join(", ")}]`;
  if (value && typeof value === "object") {
    const inner = `${indent}  `;
    const entries = Object.entries(value).map(
      ([k, v]) => `${inner}${IDENT.test(k) ? k : JSON.stringify(k)}: ${literal(v, inner)},`,
    );
    return entries.length ? `{\n${entries.join("\n")}\n${indent}}` : "{}";
  }
  return JSON.stringify(value);
}

const SECTIONS = { Channel: "Notification channels", Monitor: "Monitors", StatusPage: "Status pages" } as const;

/** index.ts of the generated project. */
export function renderIndex(program: ImportedProgram, header: string): string {
  const lines = [
    `// ${header}`,
    "// Every resource adopts the live object with the same id: `pulumi up` creates nothing.",
    'import * as pulumi from "@pulumi/pulumi";',
    'import * as uptime from "pulumi-uptime";',
    "",
    "const config = new pulumi.Config();",
  ];
  if (program.secrets.length === 0) lines.push("void config;");
  let section = "";
  for (const d of program.declarations) {
    if (SECTIONS[d.className] !== section) {
      section = SECTIONS[d.className];
      lines.push("", `// ${section}`);
    }
    lines.push(`const ${d.varName} = new uptime.${d.className}(${JSON.stringify(d.varName)}, ${literal(d.args)});`);
  }
  const exports = program.declarations.map((d) => `  ${d.varName}: ${d.varName}.id,`);
  lines.push("", "/** The id of every resource, by name. */", `export const ids = {`, ...exports, "};", "");
  return lines.join("\n");
}

/** Text safe in a Markdown table cell or list item: names are user input. */
const cell = (text: string) => text.replace(/[\r\n]+/g, " ").replace(/[|`]/g, (c) => `\\${c}`);

/** README.md of the generated project: how to set it up, and the secret config keys. */
export function renderReadme(program: ImportedProgram, baseUrl: string, header: string): string {
  const keys = program.secrets.map((s) => `| \`${s.key}\` | ${cell(s.describe)} |`);
  const setLines = program.secrets.map((s) => `pulumi config set --secret ${s.key} '…'`);
  return [
    "# Imported uptime account",
    "",
    `${header}. Each resource declares a live object exactly as it is and adopts it (\`adopt: "<id>"\`),`,
    "so the first `pulumi up` creates nothing and the next `pulumi preview` shows no changes.",
    "",
    "## Set up",
    "",
    "```sh",
    "npm install",
    "pulumi stack init dev",
    `pulumi config set uptime:baseUrl ${baseUrl}`,
    "pulumi config set --secret uptime:apiKey uk_…",
    ...setLines,
    "pulumi up",
    "```",
    "",
    "## Secret config keys",
    "",
    program.secrets.length
      ? "The API masks these values (or they are secrets the program must not hold in code): set each one to the value the service holds, or the first `pulumi up` updates the object to what you set."
      : "None: no object of this account holds a secret.",
    "",
    ...(keys.length ? ["| Key | Value |", "| --- | --- |", ...keys, ""] : []),
    "## Resources",
    "",
    ...program.declarations.map((d) => `- \`${d.varName}\`: ${cell(d.label)}, \`${d.id}\``),
    "",
  ].join("\n");
}
