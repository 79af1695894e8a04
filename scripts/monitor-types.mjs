#!/usr/bin/env node
// Writes api/monitor-types/index.ts, the list of the monitor types' descriptors: one import a file
// of api/monitor-types/ (`<type>.ts` exports its descriptor as `<type>`), so a new monitor type is
// one new file in api/ (see docs/development.md, "Adding a monitor type"). `npm run build` runs it
// before the compiler. `--check` writes nothing and fails when the file is not what it would
// write (`npm run lint` and test/scripts/monitor-types.test.ts run it so). A folder named after the
// options stands for api/monitor-types/ (the tests' copies).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const FOLDER = resolve(fileURLToPath(import.meta.url), "../../api/monitor-types");
const INDEX = "index.ts";
/** A type's name: the file's name, an identifier the API's `type` and the code can both use. */
const NAME = /^[a-z][a-z0-9]*$/;

/** The text of index.ts for the descriptor files of `folder`. */
export function render(folder = FOLDER) {
  const types = readdirSync(folder)
    .filter((file) => file.endsWith(".ts") && file !== INDEX)
    .map((file) => file.slice(0, -".ts".length))
    .sort();
  for (const type of types) {
    if (!NAME.test(type))
      throw new Error(`api/monitor-types/${type}.ts: a type's name is lower-case letters and digits`);
    const text = readFileSync(join(folder, `${type}.ts`), "utf8");
    if (!text.includes(`export const ${type} = {`))
      throw new Error(`api/monitor-types/${type}.ts must export its descriptor as \`export const ${type} = {…}\``);
  }
  return [
    "// Written by scripts/monitor-types.mjs (`npm run build`) from the files of this folder: do not edit.",
    'import type { MonitorTypeDescriptor } from "../monitor-type";',
    ...types.map((type) => `import { ${type} } from "./${type}";`),
    "",
    "/** Every monitor type's descriptor, by its name: one file of this folder each. */",
    "export const MONITOR_TYPE_DESCRIPTORS = {",
    ...types.map((type) => `  ${type},`),
    "} as const satisfies Record<string, MonitorTypeDescriptor>;",
    "",
  ].join("\n");
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const folder = process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? FOLDER;
  const path = join(folder, INDEX);
  const text = render(folder);
  let written = "";
  try {
    written = readFileSync(path, "utf8");
  } catch {
    // Not written yet.
  }
  if (process.argv.includes("--check")) {
    if (written !== text) {
      console.error(`${path} is stale: run \`npm run build\` (or node scripts/monitor-types.mjs)`);
      process.exit(1);
    }
  } else if (written !== text) writeFileSync(path, text);
}
