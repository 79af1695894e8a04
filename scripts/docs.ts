/**
 * `npm run docs`: the API docs in docs/, generated from the native plugin's package schema (so
 * from the field tables) and from the example programs the engine tests deploy. One page per
 * resource and function, with every property, its type, default and rule; an install and
 * configuration page; an index. test/scripts/docs.test.ts fails while docs/ differs.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { MONITOR_TYPE_DOCS } from "../api";
import { PLUGIN_KINDS } from "../plugin/kinds";
import { packageSchema } from "../plugin/schema";
import { API_OPERATIONS_PAGE, generatedApiOperations } from "./api-operations";
import { excerpts, exampleFiles, EXAMPLE_SOURCES } from "./docs-examples";
import { installPage, type Json, propertyTable, type Schema, supportingTypes } from "./docs-tables";

/** The repository root (this file is scripts/docs.ts, or its build in dist/). */
const ROOT = resolve(__dirname, __dirname.includes("/dist/") ? "../.." : "..");
/** The folder the docs go to. */
export const DOCS = "docs";

const kebab = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
const nameOf = (token: string) => token.split(":")[2] as string;
/** A page's path in docs/: `reference/resources/monitor.md`, `reference/functions/get-monitor.md`. */
const pagePath = (token: string, isFunction: boolean) =>
  `reference/${isFunction ? "functions" : "resources"}/${kebab(nameOf(token))}.md`;
/** The folders of docs/ that hold generated pages only; the other generated pages sit among written ones. */
export const GENERATED_DIRS = ["reference/resources", "reference/functions"] as const;

/** The examples section of a page: per language, the statements that use it, linked to their program. */
function examplesSection(root: string, page: string, name: string, token: string): string {
  const files = exampleFiles(root);
  const parts = EXAMPLE_SOURCES.map((source) => {
    const found = files
      .filter((f) => f.source === source)
      .flatMap((f) => {
        const text = excerpts(f, name, token);
        return text ? [{ path: f.path, text }] : [];
      });
    if (!found.length) return `### ${source.language}\n\n_No ${source.language} example program uses \`${name}\` yet._`;
    const blocks = found.map(
      (f) =>
        `From [\`${f.path}\`](${relative(dirname(join(DOCS, page)), f.path)}):\n\n\`\`\`${source.fence}\n${f.text}\n\`\`\``,
    );
    return `### ${source.language}\n\n${blocks.join("\n\n")}`;
  });
  const intro =
    "Excerpts of the example programs that the engine tests deploy. TypeScript programs use the `pulumi-uptime` package " +
    "(dynamic resources): the same properties, but a channel's `config` is its type's block itself. The JavaScript " +
    "program uses the plugin's Node.js SDK (`@pulumi-uptime/native`), whose types TypeScript programs can use as well.";
  return `## Example\n\n${intro}\n\n${parts.join("\n\n")}`;
}

/** What a monitor's state holds, and what programs read for a property it leaves out. */
function monitorStateSection(): string {
  const rows = Object.entries(MONITOR_TYPE_DOCS).map(
    ([type, d]) => `| \`${type}\` | ${d.fields.map((f) => `\`${f}\``).join(", ") || "none"} |`,
  );
  return [
    "## Properties of other monitor types",
    "A monitor's state holds what its type needs: the properties every type has, and those of its own type below. A property " +
      "of other types only is left out while it holds its default, and programs read `undefined` for it (`None` in Python, " +
      "a nil pointer in Go): `keyword` of an http monitor, `pushUrl` of any but a heartbeat monitor. A property of its own type " +
      "that is `null` (none set) is left out too; TypeScript programs of the `pulumi-uptime` package read `null` for it, " +
      "the plugin's SDKs `undefined`, `None` or nil. A diff and a refresh compare a property left out as its default, so a " +
      "change made outside Pulumi to a property of the monitor's type is seen and repaired as before. State written by " +
      "earlier versions, which held every property, is taken over as it is; the next refresh or write of each monitor leaves out what it does not need.",
    "| type | its own properties |\n| --- | --- |\n" + rows.join("\n"),
  ].join("\n\n");
}

function resourcePage(root: string, schema: Schema, token: string, spec: Json): string {
  const name = nameOf(token);
  const page = pagePath(token, false);
  const inputs = spec.inputProperties as Record<string, Json>;
  const outputs = spec.properties as Record<string, Json>;
  const outputOnly = Object.fromEntries(Object.entries(outputs).filter(([p]) => !(p in inputs)));
  return [
    `# ${name}\n\n\`${token}\`: ${spec.description as string}`,
    examplesSection(root, page, name, token),
    `## Inputs\n\n${propertyTable(inputs, (spec.requiredInputs ?? []) as string[], "required")}`,
    `## Outputs\n\nEvery input is also an output. Besides:\n\n${propertyTable(outputOnly, (spec.required ?? []) as string[], "always set")}`,
    name === "Monitor" ? monitorStateSection() : "",
    supportingTypes(schema, [inputs, outputs]),
  ]
    .filter(Boolean)
    .join("\n\n");
}

function functionPage(root: string, schema: Schema, token: string, spec: Json): string {
  const name = nameOf(token);
  const page = pagePath(token, true);
  const inputs = spec.inputs as { properties: Record<string, Json>; required: string[] };
  const outputs = spec.outputs as { properties: Record<string, Json>; required: string[] };
  return [
    `# ${name}\n\n\`${token}\`: ${spec.description as string}`,
    examplesSection(root, page, name, token),
    `## Arguments\n\n${propertyTable(inputs.properties, inputs.required ?? [], "required")}`,
    `## Result\n\n${propertyTable(outputs.properties, outputs.required ?? [], "always set")}`,
    supportingTypes(schema, [inputs.properties, outputs.properties]),
  ]
    .filter(Boolean)
    .join("\n\n");
}

function indexPage(schema: Schema): string {
  const list = (section: Record<string, Json>, isFunction: boolean) =>
    Object.entries(section)
      .map(
        ([t, s]) =>
          `- [${nameOf(t)}](${relative("reference", pagePath(t, isFunction))}): ${String(s.description).split("\n")[0]}`,
      )
      .join("\n");
  return [
    `# ${schema.displayName as string} provider: reference`,
    `The resource and function pages are generated by \`npm run docs\` from the package schema of the native plugin \`pulumi-resource-uptime\` (version ${schema.version as string}) and from the example programs the engine tests deploy. TypeScript and JavaScript programs use the \`pulumi-uptime\` package, whose resources take the same properties ([in TypeScript](typescript.md)). The map of all the docs: [docs/README.md](../README.md).`,
    [
      "- [Installation and configuration](../installation-configuration.md)",
      "- [Resources in TypeScript and JavaScript](typescript.md): the `pulumi-uptime` package, field by field",
      "- [The server's command line](server-cli.md): `uptime-server`",
      "- [The REST API](rest-api.md): with curl examples; [its operations](api-operations.md), generated from the OpenAPI document",
      "- [Errors](errors.md): what `pulumi up` shows, and the API's error codes",
      "- [Limits, the client and large stacks](limits.md)",
    ].join("\n"),
    `## Resources\n\n${list(schema.resources as Record<string, Json>, false)}`,
    `## Functions\n\n${list(schema.functions as Record<string, Json>, true)}`,
  ].join("\n\n");
}

/** Every page of docs/, by path inside it, for the current schema and example programs. */
export function generateDocs(root = ROOT): Map<string, string> {
  // The plugin's version is the provider package's (plugin/build/bundle.ts).
  const version = (JSON.parse(readFileSync(join(root, "provider", "package.json"), "utf8")) as { version: string })
    .version;
  const schema = packageSchema(PLUGIN_KINDS, version) as Schema;
  const pages = new Map<string, string>([
    ["reference/README.md", indexPage(schema)],
    ["installation-configuration.md", installPage(schema)],
  ]);
  for (const [t, s] of Object.entries(schema.resources as Record<string, Json>))
    pages.set(pagePath(t, false), resourcePage(root, schema, t, s));
  for (const [t, s] of Object.entries(schema.functions as Record<string, Json>))
    pages.set(pagePath(t, true), functionPage(root, schema, t, s));
  const generated = (p: string, text: string) => {
    const body = `<!-- Generated by npm run docs from the plugin's schema; do not edit. -->\n\n${text.trimEnd()}\n`;
    // The Pulumi Registry reads its page's title from front matter.
    return p === "installation-configuration.md" ? `${REGISTRY_FRONT_MATTER}\n${body}` : body;
  };
  return new Map([...pages].map(([p, text]) => [p, generated(p, text)]));
}

/** The front matter the Pulumi Registry expects on a package's installation page. */
const REGISTRY_FRONT_MATTER = [
  "---",
  'title: "Uptime: Installation & Configuration"',
  'meta_desc: "How to install the Uptime provider (pulumi-uptime) and configure its connection to an uptime monitoring service."',
  "layout: package",
  "---",
].join("\n");

/** The generated pages in docs/ now, by path inside it: the generated folders' files and the other generated pages. */
export function docsFiles(dir: string): string[] {
  const inFolders = GENERATED_DIRS.flatMap((d) =>
    readdirSync(join(dir, d), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile())
      .map((e) => relative(dir, join(e.parentPath, e.name))),
  );
  return [...inFolders, "reference/README.md", "installation-configuration.md"].sort();
}

if (require.main === module) {
  const dir = join(ROOT, DOCS);
  for (const d of GENERATED_DIRS) rmSync(join(dir, d), { recursive: true, force: true });
  writeFileSync(join(dir, API_OPERATIONS_PAGE), generatedApiOperations(ROOT));
  for (const [path, text] of generateDocs()) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  console.log(`docs: ${docsFiles(dir).length} pages in ${dir}`);
}
