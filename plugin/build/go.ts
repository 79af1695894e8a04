/**
 * The Go side of the native plugin's SDKs: the generated package made a module of its own (the
 * schema's `importBasePath` is its module path), checked with `go vet` and `go build`, and the
 * environment every Go build of the project's programs uses.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./bundle";
import { cacheBase } from "./python";

/**
 * The environment for `go` commands: GOCACHE and GOMODCACHE in the project's cache folder (outside
 * the clone, kept between runs; the same as scripts/ensure-pulumi.mjs uses for the CLI and hosts),
 * unless the caller chose them. Modules come from the module proxy.
 */
export function goEnv(base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  return {
    ...base,
    GOCACHE: base.GOCACHE ?? join(cacheBase(), "go", "build"),
    GOMODCACHE: base.GOMODCACHE ?? join(cacheBase(), "go", "mod"),
  };
}

/** The Go SDK's module path, as the schema names it (`language.go.importBasePath`). */
export function goModulePath(schemaPath: string): string {
  const schema = JSON.parse(readFileSync(schemaPath, "utf8")) as { language?: { go?: { importBasePath?: string } } };
  const path = schema.language?.go?.importBasePath;
  if (!path) throw new Error(`${schemaPath} names no language.go.importBasePath`);
  return path;
}

/** The @pulumi/pulumi version of this checkout: the Go SDK requires the same Go SDK version. */
const pulumiVersion = () => JSON.parse(readFileSync(join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version as string;

/**
 * Makes the generated Go package in `dir` a module (go.mod, go.sum from the module proxy) and
 * fails unless `go vet` and `go build` are clean.
 */
export function makeGoModule(dir: string, schemaPath: string): void {
  writeFileSync(
    join(dir, "go.mod"),
    `module ${goModulePath(schemaPath)}\n\ngo 1.25\n\nrequire github.com/pulumi/pulumi/sdk/v3 v${pulumiVersion()}\n`,
  );
  const go = (args: string[], flags = "") =>
    execFileSync("go", args, { cwd: dir, env: { ...goEnv(), GOFLAGS: flags }, stdio: ["ignore", "pipe", "inherit"] });
  go(["mod", "tidy"], "-mod=mod");
  go(["vet", "./..."]);
  go(["build", "./..."]);
}
