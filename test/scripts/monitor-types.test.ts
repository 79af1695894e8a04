import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MONITOR_TYPES } from "../../api";
import { REPO_ROOT } from "../../scripts/pulumi-engine";

type Generator = typeof import("../../scripts/monitor-types.mjs", { with: { "resolution-mode": "import" } });
let render: Generator["render"];
beforeAll(async () => {
  ({ render } = await import("../../scripts/monitor-types.mjs"));
});

const SCRIPT = join(REPO_ROOT, "scripts/monitor-types.mjs");
const dir = mkdtempSync(join(tmpdir(), "monitor-types-"));
const run = (...args: string[]) => spawnSync(process.execPath, [SCRIPT, ...args], { encoding: "utf8" });

describe("the list of monitor types (scripts/monitor-types.mjs)", () => {
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("api/monitor-types/index.ts is what the folder's files make it, and lists every type", () => {
    expect(run("--check").status).toBe(0);
    const index = readFileSync(join(REPO_ROOT, "api/monitor-types/index.ts"), "utf8");
    expect(index).toBe(render());
    for (const type of MONITOR_TYPES) expect(index).toContain(`import { ${type} } from "./${type}";`);
  });

  it("a new descriptor file is a new type of the list: the check fails until the build writes it", () => {
    writeFileSync(join(dir, "http.ts"), "export const http = {\n  order: 1,\n};\n");
    expect(run(dir).status).toBe(0);
    expect(run("--check", dir).status).toBe(0);
    writeFileSync(join(dir, "tls.ts"), "export const tls = {\n  order: 2,\n};\n");
    const stale = run("--check", dir);
    expect(stale.status).toBe(1);
    expect(stale.stderr).toContain("index.ts is stale: run `npm run build`");
    expect(run(dir).status).toBe(0);
    expect(run("--check", dir).status).toBe(0);
    const index = readFileSync(join(dir, "index.ts"), "utf8");
    expect(index).toContain('import { tls } from "./tls";');
    expect(index).toMatch(/^ {2}http,\n {2}tls,\n\} as const satisfies Record<string, MonitorTypeDescriptor>;$/m);
  });

  it("a file that does not export its descriptor under its own name is refused, naming the file", () => {
    writeFileSync(join(dir, "udp.ts"), "export const datagram = {};\n");
    expect(() => render(dir)).toThrow(
      "api/monitor-types/udp.ts must export its descriptor as `export const udp = {…}`",
    );
    rmSync(join(dir, "udp.ts"));
  });
});
