/**
 * The tables of the API docs, from the package schema: properties with their type, default and
 * rule; the object and enum types a page refers to; the provider's configuration.
 */
import { NODE_REQUIRED } from "../api/node-version";

/** A part of the schema (JSON). */
export type Json = Record<string, unknown>;
/** The package schema as the docs read it. */
export type Schema = Json & { types: Record<string, Json> };

const refName = (ref: string) => ref.split(":").pop() as string;
const anchor = (name: string) => name.toLowerCase();
/** Table cells hold one line, and a `|` would end the cell. */
const cell = (s: string) => s.replace(/\n/g, " ").replace(/\|/g, "\\|");

/** A property's type as the docs write it: `string`, `integer[]`, `map<string, string>`, a link to a type. */
export function typeText(p: Json): string {
  if (typeof p.$ref === "string") {
    const name = refName(p.$ref);
    return `[${name}](#${anchor(name)})`;
  }
  if (Array.isArray(p.oneOf)) return (p.oneOf as Json[]).map(typeText).join(" or ");
  if (p.type === "array") return `${typeText(p.items as Json)}[]`;
  if (p.type === "object" && p.additionalProperties) return `map<string, ${typeText(p.additionalProperties as Json)}>`;
  return String(p.type);
}

const defaultText = (p: Json): string => (p.default === undefined ? "" : `\`${JSON.stringify(p.default)}\``);

/** The notes of a property: required (or always set), secret, replaces. */
function notes(p: Json, required: boolean, requiredWord: string): string {
  return [required ? requiredWord : "", p.secret ? "secret" : "", p.replaceOnChanges ? "replaces on change" : ""]
    .filter(Boolean)
    .join(", ");
}

/** A table of properties: name, type, default, notes, rule. */
export function propertyTable(
  props: Record<string, Json>,
  required: readonly string[] = [],
  requiredWord = "required",
): string {
  const rows = Object.entries(props ?? {}).map(
    ([name, p]) =>
      `| \`${name}\` | ${cell(typeText(p))} | ${defaultText(p)} | ${notes(p, required.includes(name), requiredWord)} | ${cell(String(p.description ?? ""))} |`,
  );
  if (!rows.length) return "_None._";
  return ["| property | type | default | notes | rule |", "| --- | --- | --- | --- | --- |", ...rows].join("\n");
}

/** Every type a set of properties refers to, through nested object types. */
function referenced(schema: Schema, props: Record<string, Json>[], out = new Set<string>()): Set<string> {
  const visit = (p: unknown): void => {
    if (!p || typeof p !== "object") return;
    const j = p as Json;
    if (typeof j.$ref === "string") {
      const token = j.$ref.replace("#/types/", "");
      if (out.has(token)) return;
      out.add(token);
      for (const q of Object.values((schema.types[token]?.properties ?? {}) as Record<string, Json>)) visit(q);
      return;
    }
    visit(j.items);
    visit(j.additionalProperties);
    if (Array.isArray(j.oneOf)) j.oneOf.forEach(visit);
  };
  for (const set of props) for (const p of Object.values(set)) visit(p);
  return out;
}

/** The page's supporting types: each object type's properties, each enum's values. */
export function supportingTypes(schema: Schema, props: Record<string, Json>[]): string {
  const tokens = [...referenced(schema, props)].sort();
  if (!tokens.length) return "";
  const sections = tokens.map((token) => {
    const t = schema.types[token] as Json;
    const head = `### ${refName(token)}\n\n${t.description ? `${String(t.description)}\n\n` : ""}`;
    if (Array.isArray(t.enum)) {
      return `${head}An enum of type \`${String(t.type)}\`: ${(t.enum as { value: unknown }[]).map((e) => `\`${String(e.value)}\``).join(", ")}.`;
    }
    return `${head}${propertyTable(t.properties as Record<string, Json>, (t.required ?? []) as string[], "required")}`;
  });
  return `## Supporting types\n\n${sections.join("\n\n")}`;
}

/** Where the schema says the plugin and the Go SDK come from, if it says. */
function sdkLines(schema: Schema): string[] {
  const go = (schema.language as { go?: { importBasePath?: string } } | undefined)?.go?.importBasePath;
  const server = schema.pluginDownloadURL as string | undefined;
  return [
    ...(server
      ? [
          `The engine downloads the plugin from \`${server}\` when a program needs it (\`pulumi plugin install resource uptime ${String(schema.version)} --server ${server}\` does so ahead).`,
        ]
      : []),
    ...(go ? [`Go programs import \`${go}\` (the generated Go SDK).`] : []),
  ];
}

/** The install and configuration page. */
export function installPage(schema: Schema): string {
  const config = (schema.config as { variables: Record<string, Json & { defaultInfo?: { environment?: string[] } }> })
    .variables;
  const rows = Object.entries(config).map(
    ([key, p]) =>
      `| \`uptime:${key}\` | ${typeText(p)} | ${(p.defaultInfo?.environment ?? []).map((e) => `\`${e}\``).join(", ")} | ${p.secret ? "secret" : ""} | ${cell(String(p.description ?? ""))} |`,
  );
  const version = String(schema.version);
  return [
    "# Installation and configuration",
    "## The plugin and its SDKs",
    `Programs in YAML, Python, Go and Java use the native plugin \`pulumi-resource-uptime\` (a bundled Node.js program) and the SDK generated from its schema; TypeScript and JavaScript programs use the \`pulumi-uptime\` package (\`npm install pulumi-uptime\`), which needs no plugin. Both need Node.js ${NODE_REQUIRED.replace(/\.0$/, "")} or later. From a clone of [the repository](${String(schema.repository)}):`,
    [
      "```sh",
      "npm run pulumi:ensure             # the Pulumi CLI, language hosts and the SDK generator",
      "npm run plugin:build -- --sdks    # dist/plugin-package: the plugin tarball and schema.json; SDKs in ~/.cache/pulumi-uptime/sdks",
      `pulumi plugin install resource uptime ${version} --file dist/plugin-package/pulumi-resource-uptime-v${version}-linux-amd64.tar.gz`,
      `pip install ~/.cache/pulumi-uptime/sdks/v${version}-<hash>/wheels/pulumi_uptime-${version}-py3-none-any.whl   # Python`,
      "```",
    ].join("\n"),
    ...sdkLines(schema),
    "YAML programs need no SDK: they name the types (`uptime:index:Monitor`) and functions (`uptime:index:getMonitor`) directly.",
    "## Configuration",
    "Each key is read in this order: a resource's (or function's) `connection`, then the environment variable, then the stack config. No base URL is assumed.",
    ["| key | type | environment | notes | description |", "| --- | --- | --- | --- | --- |", ...rows].join("\n"),
    [
      "```sh",
      "pulumi config set uptime:baseUrl https://uptime.example.com",
      "pulumi config set --secret uptime:apiKey uk_…",
      "```",
    ].join("\n"),
    "An explicit provider (`pulumi:providers:uptime`) takes the same keys as arguments, for a second account or service in one program.",
  ].join("\n\n");
}
