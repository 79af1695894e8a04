/**
 * The resource tables of docs/reference/typescript.md, generated from the field tables
 * (api/fields.ts). Run `npm run readme` to rewrite them; test/provider/fields.test.ts fails while
 * they differ.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  CHANNEL_FIELDS,
  type Field,
  type FieldTable,
  MAINTENANCE_WINDOW_FIELDS,
  MONITOR_FIELDS,
  MONITOR_TYPE_DOCS,
  RESOURCE_FIELDS,
  STATUS_PAGE_FIELDS,
} from "../api";

/** Each resource's table, by the resource's name. */
export const RESOURCE_TABLES: Record<string, FieldTable> = {
  Monitor: MONITOR_FIELDS,
  Channel: CHANNEL_FIELDS,
  StatusPage: STATUS_PAGE_FIELDS,
  MaintenanceWindow: MAINTENANCE_WINDOW_FIELDS,
};

function defaultOf(f: Field): string {
  if (f.required) return "required";
  if (f.defaultDoc) return f.defaultDoc;
  if (f.dynamicDefault) return f.dynamicDefault;
  if (f.default === undefined || f.default === null) return "none";
  return `\`${typeof f.default === "string" ? f.default : JSON.stringify(f.default)}\``;
}

/** The Markdown tables of one resource: its inputs (rule, default), then its outputs. */
export function fieldTablesMarkdown(table: FieldTable): string {
  const all: [string, Field][] = Object.entries({ ...table, ...RESOURCE_FIELDS });
  const inputs = all.filter(([, f]) => !f.outputOnly);
  const outputs = all.filter(([, f]) => f.outputOnly);
  return [
    "| input | rule | default |",
    "| --- | --- | --- |",
    ...inputs.map(([p, f]) => `| \`${p}\` | ${f.description} | ${defaultOf(f)} |`),
    "",
    "Outputs: the inputs as the service holds them, and",
    "",
    "| output | what |",
    "| --- | --- |",
    ...outputs.map(([p, f]) => `| \`${p}\` | ${f.description} |`),
  ].join("\n");
}

/** The page that holds the tables (this file runs from dist/scripts). */
export const TABLES_PAGE = join(__dirname, "..", "..", "docs", "reference", "typescript.md");
const block = (name: string) => new RegExp(`(<!-- fields:${name} -->\\n)[\\s\\S]*?(\\n<!-- /fields:${name} -->)`);

/** The page with every resource's block replaced by the generated tables. */
export function generatedReadme(text: string): string {
  let out = text;
  for (const [name, table] of Object.entries(RESOURCE_TABLES)) {
    if (!block(name).test(out)) throw new Error(`docs/reference/typescript.md has no <!-- fields:${name} --> block`);
    out = out.replace(block(name), `$1${fieldTablesMarkdown(table)}$2`);
  }
  return out;
}

/** The README (this file runs from dist/scripts). */
export const README = join(__dirname, "..", "..", "README.md");
const TYPES_BLOCK = /(<!-- monitor-types -->\n)[\s\S]*?(\n<!-- \/monitor-types -->)/;

/** The README's table of monitor types, from `MONITOR_TYPE_DOCS`. */
export function monitorTypesMarkdown(): string {
  return [
    "| `type` | `url` | its own properties | up when |",
    "| --- | --- | --- | --- |",
    ...Object.entries(MONITOR_TYPE_DOCS).map(
      ([type, d]) => `| \`${type}\` | ${d.url} | ${d.fields.map((f) => `\`${f}\``).join(", ") || "none"} | ${d.up} |`,
    ),
  ].join("\n");
}

/** The README with its monitor-types block replaced by the generated table. */
export function generatedTypesReadme(text: string): string {
  if (!TYPES_BLOCK.test(text)) throw new Error("README.md has no <!-- monitor-types --> block");
  return text.replace(TYPES_BLOCK, `$1${monitorTypesMarkdown()}$2`);
}

if (require.main === module) {
  writeFileSync(TABLES_PAGE, generatedReadme(readFileSync(TABLES_PAGE, "utf8")));
  writeFileSync(README, generatedTypesReadme(readFileSync(README, "utf8")));
}
