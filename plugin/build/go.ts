/**
 * The Go side of the native plugin's SDKs: the generated package made a module of its own (the
 * schema's `importBasePath` is its module path), checked with `go vet` and `go build`, and the
 * environment every Go build of the project's programs uses.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./bundle";
import { goEnv, run } from "./cache";

/** The Go SDK's module path, as the schema names it (`language.go.importBasePath`). */
export function goModulePath(schemaPath: string): string {
  const schema = JSON.parse(readFileSync(schemaPath, "utf8")) as { language?: { go?: { importBasePath?: string } } };
  const path = schema.language?.go?.importBasePath;
  if (!path) throw new Error(`${schemaPath} names no language.go.importBasePath`);
  return path;
}

/** The @pulumi/pulumi version of this checkout: the Go SDK requires the same Go SDK version. */
const pulumiVersion = () =>
  JSON.parse(readFileSync(join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version as string;

/**
 * Makes the generated Go package in `dir` a module (go.mod, go.sum from the module proxy) and
 * fails unless `go vet` and `go build` are clean.
 */
export async function makeGoModule(dir: string, schemaPath: string): Promise<void> {
  writeFileSync(
    join(dir, "go.mod"),
    `module ${goModulePath(schemaPath)}\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${pulumiVersion()}\n`,
  );
  const go = (args: string[], flags = "") => run("go", args, { cwd: dir, env: { ...goEnv(), GOFLAGS: flags } });
  await go(["mod", "tidy"], "-mod=mod");
  await go(["vet", "./..."]);
  await go(["build", "./..."]);
}
