import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MONITOR_TYPES } from "../../api";
import { REPO_ROOT } from "../../scripts/pulumi-engine";

type Generator = typeof import("../../scripts/monitor-types.mjs", { with: { "resolution-mode": "import" } });
let render: Generator["render"];
let renderCheckers: Generator["renderCheckers"];
beforeAll(async () => {
  ({ render, renderCheckers } = await import("../../scripts/monitor-types.mjs"));
});

const SCRIPT = join(REPO_ROOT, "scripts/monitor-types.mjs");
const dir = mkdtempSync(join(tmpdir(), "monitor-types-"));
const checkers = mkdtempSync(join(tmpdir(), "checker-types-"));
const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: "utf8" });

describe("the list of monitor types (scripts/monitor-types.mjs)", () => {
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(checkers, { recursive: true, force: true });
  });

  it("both index.ts files are what the folders' files make them, and list every type", () => {
    expect(run("--check").status).toBe(0);
    const index = readFileSync(join(REPO_ROOT, "api/monitor-types/index.ts"), "utf8");
    expect(index).toBe(render());
    const modules = readFileSync(join(REPO_ROOT, "server/checker/monitor-types/index.ts"), "utf8");
    expect(modules).toBe(renderCheckers());
    for (const type of MONITOR_TYPES) {
      expect(index).toContain(`import { ${type} } from "./${type}";`);
      expect(modules).toContain(`  ${type}: ${type}Type,`);
    }
  });

  it("a new type is its descriptor and its checker module: the check fails until the build lists both", () => {
    writeFileSync(join(dir, "http.ts"), "export const http = {\n  order: 1,\n};\n");
    writeFileSync(join(checkers, "http.ts"), "export const httpType = {};\n");
    expect(run(dir, checkers).status).toBe(0);
    expect(run("--check", dir, checkers).status).toBe(0);
    writeFileSync(join(dir, "tls.ts"), "export const tls = {\n  order: 2,\n};\n");
    const missing = run(dir, checkers);
    expect(missing.status).toBe(1);
    expect(missing.stderr).toContain("server/checker/monitor-types/tls.ts is missing");
    writeFileSync(join(checkers, "tls.ts"), "export const tlsType = {};\n");
    const stale = run("--check", dir, checkers);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain("index.ts is stale: run `npm run build`");
    expect(run(dir, checkers).status).toBe(0);
    expect(run("--check", dir, checkers).status).toBe(0);
    const index = readFileSync(join(dir, "index.ts"), "utf8");
    expect(index).toContain('import { tls } from "./tls";');
    expect(index).toMatch(/^ {2}http,\n {2}tls,\n\} as const satisfies Record<string, MonitorTypeDescriptor>;$/m);
    const modules = readFileSync(join(checkers, "index.ts"), "utf8");
    expect(modules).toContain('import { tlsType } from "./tls";');
    expect(modules).toMatch(
      /^ {2}http: httpType,\n {2}tls: tlsType,\n\} as const satisfies Record<MonitorTypeName, MonitorType>;$/m,
    );
  });

  it("a checker module that does not export its implementation under the type's name is refused, naming the file", () => {
    writeFileSync(join(checkers, "tls.ts"), "export const tlsCheck = {};\n");
    expect(() => renderCheckers(dir, checkers)).toThrow(
      "server/checker/monitor-types/tls.ts must export its module as `export const tlsType`",
    );
    writeFileSync(join(checkers, "tls.ts"), "export const tlsType = {};\n");
  });

  it("a file that does not export its descriptor under its own name is refused, naming the file", () => {
    writeFileSync(join(dir, "udp.ts"), "export const datagram = {};\n");
    expect(() => render(dir)).toThrow(
      "api/monitor-types/udp.ts must export its descriptor as `export const udp = {…}`",
    );
    rmSync(join(dir, "udp.ts"));
  });
});
