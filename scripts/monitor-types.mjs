#!/usr/bin/env node
// Writes the two lists of the monitor types, so a new monitor type is one new file in api/ and one
// in the server's checker (see docs/development.md, "Adding a monitor type"):
// - api/monitor-types/index.ts, the descriptors: one import a file of api/monitor-types/ (`<type>.ts`
//   exports its descriptor as `<type>`);
// - server/checker/monitor-types/index.ts, the checker's modules: for each of those types, the
//   module `<type>.ts` of that folder (it exports its implementation as `<type>Type`).
// `npm run build` runs it before the compiler. `--check` writes nothing and fails when a file is not
// what it would write (`npm run lint` and test/scripts/monitor-types.test.ts run it so). Folders
// named after the options stand for api/monitor-types/ and server/checker/monitor-types/ (the
// tests' copies).
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const FOLDER = resolve(fileURLToPath(import.meta.url), "../../api/monitor-types");
const CHECKER_FOLDER = resolve(fileURLToPath(import.meta.url), "../../server/checker/monitor-types");
const INDEX = "index.ts";
/** A type's name: the file's name, an identifier the API's `type` and the code can both use. */
const NAME = /^[a-z][a-z0-9]*$/;

/** The monitor types: the names of the descriptor files of `folder`, sorted. */
export function typesOf(folder = FOLDER) {
  return readdirSync(folder)
    .filter((file) => file.endsWith(".ts") && file !== INDEX)
    .map((file) => file.slice(0, -".ts".length))
    .sort();
}

/** The text of index.ts for the descriptor files of `folder`. */
export function render(folder = FOLDER) {
  const types = typesOf(folder);
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

/**
 * The text of the checker's index.ts in `folder` for the types of the descriptor folder `folder`:
 * every type needs its module there, exporting `<type>Type`.
 */
export function renderCheckers(folder = FOLDER, checkerFolder = CHECKER_FOLDER) {
  const types = typesOf(folder);
  for (const type of types) {
    let text;
    try {
      text = readFileSync(join(checkerFolder, `${type}.ts`), "utf8");
    } catch {
      throw new Error(
        `server/checker/monitor-types/${type}.ts is missing: every type of api/monitor-types/ has its checker module there`,
      );
    }
    if (!new RegExp(`export const ${type}Type\\b`).test(text))
      throw new Error(`server/checker/monitor-types/${type}.ts must export its module as \`export const ${type}Type\``);
  }
  return [
    "// Written by scripts/monitor-types.mjs (`npm run build`) from the types of api/monitor-types/: do not edit.",
    'import type { MonitorType as MonitorTypeName } from "../../../api";',
    'import type { MonitorType } from "./monitor-type";',
    ...types.map((type) => `import { ${type}Type } from "./${type}";`),
    "",
    "/** Every monitor type's checker module, by the type's name: one file of this folder each. */",
    "export const CHECKER_MODULES = {",
    ...types.map((type) => `  ${type}: ${type}Type,`),
    "} as const satisfies Record<MonitorTypeName, MonitorType>;",
    "",
  ].join("\n");
}

/** Writes `text` to `path`, or with `check` fails when the file differs. */
function writeOrCheck(path, text, check) {
  let written = "";
  try {
    written = readFileSync(path, "utf8");
  } catch {
    // Not written yet.
  }
  if (written === text) return;
  if (check) {
    console.error(`${path} is stale: run \`npm run build\` (or node scripts/monitor-types.mjs)`);
    process.exit(1);
  }
  writeFileSync(path, text);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [folder = FOLDER, checkerFolder = CHECKER_FOLDER] = process.argv
    .slice(2)
    .filter((arg) => !arg.startsWith("--"));
  const check = process.argv.includes("--check");
  try {
    writeOrCheck(join(folder, INDEX), render(folder), check);
    writeOrCheck(join(checkerFolder, INDEX), renderCheckers(folder, checkerFolder), check);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
