import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PLUGIN_KINDS } from "../../plugin/kinds";
import { packageSchema } from "../../plugin/schema";
import { API_OPERATIONS_PAGE, generatedApiOperations } from "../../scripts/api-operations";
import { DOCS, docsFiles, generateDocs } from "../../scripts/docs";
import { EXAMPLE_SOURCES } from "../../scripts/docs-examples";
import { packageReadme, REPOSITORY_BLOB } from "../../scripts/packages";

const ROOT = join(__dirname, "..", "..");
const pages = generateDocs(ROOT);
const schema = packageSchema(PLUGIN_KINDS, "0.0.0") as {
  resources: Record<string, { inputProperties: Record<string, unknown>; properties: Record<string, unknown> }>;
  functions: Record<
    string,
    { inputs: { properties: Record<string, unknown> }; outputs: { properties: Record<string, unknown> } }
  >;
  types: Record<string, { properties?: Record<string, unknown>; enum?: { value: unknown }[] }>;
};
const page = (token: string, section: "resources" | "functions") =>
  pages.get(
    `reference/${section}/${(token.split(":")[2] as string).replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase()}.md`,
  ) as string;

describe("the API docs in docs/", () => {
  it("are what `npm run docs` generates from the current schema and example programs", () => {
    const dir = join(ROOT, DOCS);
    expect(docsFiles(dir)).toEqual([...pages.keys()].sort());
    for (const [path, text] of pages)
      expect(readFileSync(join(dir, path), "utf8"), `docs/${path}: run npm run docs`).toBe(text);
  });

  it("list every operation of the OpenAPI document, as `npm run docs` generates the page from it", () => {
    const page = readFileSync(join(ROOT, DOCS, API_OPERATIONS_PAGE), "utf8");
    expect(page, "run npm run docs").toBe(generatedApiOperations(ROOT));
    const doc = JSON.parse(readFileSync(join(ROOT, "test/__snapshots__/openapi.json"), "utf8")) as {
      paths: Record<string, Record<string, { operationId: string }>>;
    };
    for (const methods of Object.values(doc.paths))
      for (const op of Object.values(methods)) expect(page).toContain(`| \`${op.operationId}\` |`);
  });

  it("have a page per resource and function naming every property, and every value of the enums they use", () => {
    for (const [token, r] of Object.entries(schema.resources)) {
      const text = page(token, "resources");
      for (const p of [...Object.keys(r.inputProperties), ...Object.keys(r.properties)])
        expect(text, `${token}.${p}`).toContain(`| \`${p}\` |`);
    }
    for (const [token, f] of Object.entries(schema.functions)) {
      const text = page(token, "functions");
      for (const p of [...Object.keys(f.inputs.properties), ...Object.keys(f.outputs.properties)])
        expect(text, `${token}.${p}`).toContain(`| \`${p}\` |`);
    }
    const monitor = page("uptime:index:Monitor", "resources");
    for (const e of schema.types["uptime:index:MonitorMethod"]?.enum ?? [])
      expect(monitor).toContain(`\`${String(e.value)}\``);
    expect(monitor).toMatch(/\| `timeoutSec` \| integer \| {2}\|.*intervalSec` − 1/);
    expect(page("uptime:index:Channel", "resources")).toMatch(
      /### WebhookConfig[\s\S]*\| `secret` \| string \| {2}\| secret \|/,
    );
  });

  it("show, on every page, the YAML and Python programs the engine tests deploy, excerpted from their files", () => {
    const programs = Object.fromEntries(
      EXAMPLE_SOURCES.flatMap((s) =>
        s.paths.filter((p) => existsSync(join(ROOT, p))).map((p) => [p, readFileSync(join(ROOT, p), "utf8")]),
      ),
    );
    for (const [path, text] of pages) {
      if (!path.startsWith("reference/resources/") && !path.startsWith("reference/functions/")) continue;
      expect(text, path).toMatch(/From \[`test\/engine\/programs\/native-[a-z-]+\/Pulumi\.yaml`\]/);
      expect(text, path).toMatch(/From \[`test\/engine\/programs\/native-[a-z-]+\/__main__\.py`\]/);
      // Code excerpts are the files' own lines (YAML is re-serialized from the parsed program).
      for (const [, file, fence, body] of text.matchAll(/From \[`([^`]+)`\][^\n]*\n\n```(\w+)\n([\s\S]*?)\n```/g)) {
        if (fence === "yaml") continue;
        for (const part of (body as string).split("\n\n"))
          expect(programs[file as string], `${path}: ${file}`).toContain(part);
      }
    }
    expect(pages.get("reference/resources/maintenance-window.md")).toContain(
      "From [`examples/scheduled-jobs/index.ts`]",
    );
    // The Go program, once there, is shown like the others.
    if (existsSync(join(ROOT, "examples/native-go/main.go")))
      expect(page("uptime:index:Monitor", "resources")).toContain("examples/native-go/main.go");
  });

  it("are linked from the docs map, with the install and configuration page from their index, in the Registry's form", () => {
    expect(readFileSync(join(ROOT, "docs/README.md"), "utf8")).toContain("](reference/README.md)");
    expect(pages.get("reference/README.md")).toContain("](../installation-configuration.md)");
    expect(pages.get("installation-configuration.md")).toMatch(
      /^---\ntitle: "[^"]+"\nmeta_desc: "[^"]+"\nlayout: package\n---\n/,
    );
    expect(pages.get("installation-configuration.md")).toMatch(
      /`uptime:apiKey` \| string \| `UPTIME_API_KEY` \| secret/,
    );
  });
});

describe("the provider package's README (its npm page)", () => {
  it("is the repository's README with each relative link made absolute, into the repository's docs", () => {
    const readme = readFileSync(join(ROOT, "README.md"), "utf8");
    const page = packageReadme(readme);
    expect(page).toContain(`](${REPOSITORY_BLOB}/docs/README.md)`);
    expect(page).toContain(`](${REPOSITORY_BLOB}/docs/guides/production.md)`);
    expect(
      [...page.matchAll(/\]\(([^)]+)\)/g)].map((m) => m[1]).filter((l) => !/^https:\/\//.test(l as string)),
    ).toEqual([]);
    expect(page.replaceAll(`${REPOSITORY_BLOB}/`, "")).toBe(readme);
  });
});
