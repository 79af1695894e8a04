/**
 * The Node.js SDK of the native plugin compiled as its generator meant it (`tsc` with the
 * generated tsconfig) into `bin/`, which is the package to install: JavaScript, declarations and
 * the package.json that tells the engine which plugin it needs.
 */
import { copyFileSync, existsSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { ROOT } from "./bundle";
import { run } from "./cache";

/**
 * Compiles the generated SDK in `dir` with this checkout's TypeScript and @pulumi/pulumi (linked
 * in while tsc runs); fails on any type error. Returns the package folder (`dir/bin`).
 */
export async function compileNodeSdk(dir: string): Promise<string> {
  const modules = join(dir, "node_modules");
  symlinkSync(join(ROOT, "node_modules"), modules, "dir");
  try {
    await run(process.execPath, [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", dir]);
  } finally {
    rmSync(modules, { force: true });
  }
  const bin = join(dir, "bin");
  for (const file of ["package.json", "README.md"])
    if (existsSync(join(dir, file))) copyFileSync(join(dir, file), join(bin, file));
  return bin;
}
