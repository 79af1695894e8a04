import { execFile } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, inject, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";

const run = promisify(execFile);

/**
 * Every TypeScript program the engine runs (the examples users copy, the test programs and the
 * benchmark's), except oldest-sdk, which installs its own SDK and is type-checked as it runs.
 */
const PROGRAMS = ["examples", "test/engine/programs", "bench/programs"].flatMap((parent) =>
  readdirSync(join(REPO_ROOT, parent))
    .map((name) => `${parent}/${name}`)
    .filter((path) => existsSync(join(REPO_ROOT, path, "tsconfig.json")) && !path.endsWith("/oldest-sdk")),
);

// The engine tests run these programs transpile-only (PULUMI_NODEJS_TRANSPILE_ONLY, see
// scripts/pulumi-engine.ts): their types are checked here, all in one `tsc` run (the SDK's own
// declarations are read once, not once per program), with the options of Pulumi's TypeScript
// template that every program's tsconfig.json has, as a user's `tsc` or editor would.
describe("the engine tests' TypeScript programs", () => {
  it("include the examples and compile with tsc against the packed package", async () => {
    expect(PROGRAMS).toEqual(
      expect.arrayContaining([
        "examples/basic",
        "examples/full-stack",
        "test/engine/programs/fleet",
        "bench/programs/monitors",
      ]),
    );
    const root = mkdtempSync(join(tmpdir(), "pulumi-uptime-typecheck-"));
    try {
      symlinkSync(inject("packedModules"), join(root, "node_modules"), "dir");
      const options = JSON.parse(
        readFileSync(join(REPO_ROOT, PROGRAMS[0] as string, "tsconfig.json"), "utf8"),
      ).compilerOptions;
      const files: string[] = [];
      for (const path of PROGRAMS) {
        const tsconfig = JSON.parse(readFileSync(join(REPO_ROOT, path, "tsconfig.json"), "utf8"));
        // One run needs one set of options: every program has the template's.
        expect({ [path]: tsconfig.compilerOptions }).toEqual({ [path]: options });
        cpSync(join(REPO_ROOT, path), join(root, path), {
          recursive: true,
          filter: (from) => !from.includes("node_modules"),
        });
        files.push(...(tsconfig.files as string[]).map((f) => `${path}/${f}`));
      }
      writeFileSync(
        join(root, "tsconfig.json"),
        JSON.stringify({ compilerOptions: { ...options, noEmit: true }, files }),
      );
      const tsc = join(root, "node_modules/typescript/bin/tsc");
      const out = await run(process.execPath, [tsc, "-p", ".", "--pretty", "false"], {
        cwd: root,
        encoding: "utf8",
      }).then(
        () => "",
        (err: { stdout?: string; stderr?: string }) => `${err.stdout ?? ""}${err.stderr ?? ""}`,
      );
      expect(out).toBe("");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
