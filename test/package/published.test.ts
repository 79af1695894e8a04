/**
 * The packages as `npm pack` makes them, installed into a fresh Pulumi TypeScript project the
 * way `pulumi new typescript` sets one up: what they ship, what they install, and whether their
 * types compile under the template's tsconfig with no `skipLibCheck`.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmInstall, packPackage, programDevDependencies, sdkVersion } from "../../scripts/packed";
import { REPO_ROOT } from "../../scripts/pulumi-engine";

/** `pulumi new typescript`'s tsconfig.json, with `moduleResolution` as given. */
const templateTsconfig = (moduleResolution: "node" | "node16", files: string[]) => ({
  compilerOptions: {
    strict: true,
    outDir: "bin",
    target: "es2020",
    module: moduleResolution === "node" ? "commonjs" : "node16",
    moduleResolution,
    sourceMap: true,
    experimentalDecorators: true,
    noFallthroughCasesInSwitch: true,
    noImplicitReturns: true,
    forceConsistentCasingInFileNames: true,
  },
  files,
});

const PROGRAM = `import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";
import { detectDrift, formatDrift } from "pulumi-uptime/drift";
import { findOrphans } from "pulumi-uptime/orphans";

const ops = new uptime.Channel("ops", { type: "email", config: { address: "ops@example.com" } });
const api = new uptime.Monitor("api", { type: "http", url: "https://api.example.com", intervalSec: 60, channelIds: [ops.id], tags: ["prod"] });
export const stats = api.id.apply((monitorId) => uptime.getMonitorStats({ monitorId }));
export const checks: pulumi.Output<number> = api.intervalSec;
export const tools = [detectDrift, formatDrift, findOrphans];
`;

const TEST_KIT = `import { startUptimeServer, type UptimeServer } from "pulumi-uptime-server/testing";

export async function run(): Promise<string> {
  const server: UptimeServer = await startUptimeServer({ faults: [] });
  await server.close();
  return server.url;
}
`;

/** The installed packages of the project in `dir` (folders under node_modules). */
const installed = (dir: string) =>
  new Set(
    execFileSync("npm", ["ls", "--all", "--parseable"], { cwd: dir, encoding: "utf8" })
      .trim()
      .split("\n")
      .slice(1)
      .map((p) => p.slice(p.indexOf("node_modules/") + "node_modules/".length)),
  );
/** A package's name from its folder under node_modules (nested ones included). */
const nameOf = (path: string) => path.split("node_modules/").pop() as string;

describe("the packed packages in a fresh Pulumi TypeScript project", () => {
  const dir = mkdtempSync(join(tmpdir(), "pulumi-uptime-published-"));
  let provider: string;
  let server: string;
  let added: string[];

  beforeAll(() => {
    provider = packPackage("provider", dir);
    server = packPackage("server", dir);
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        name: "fresh",
        main: "index.ts",
        dependencies: { "@pulumi/pulumi": sdkVersion() },
        devDependencies: programDevDependencies(),
      }),
    );
    npmInstall(dir);
    const before = installed(dir);
    npmInstall(dir, [provider]);
    added = [...installed(dir)].filter((p) => !before.has(p)).sort();
    npmInstall(dir, ["--save-dev", server]);
  }, 600_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("uptime-server on a Node.js older than it supports says which it needs, and on one it supports runs", () => {
    // npm's `engines` only warns at install, so the command itself must say it. This Node.js,
    // told it is 22.18.0 by a preload, stands for an older one (whose undici import would crash).
    const bin = join(dir, "node_modules", ".bin", "uptime-server");
    const olderVersion = join(dir, "node-22.18.cjs");
    writeFileSync(
      olderVersion,
      `Object.defineProperty(process, "versions", { value: { ...process.versions, node: "22.18.0" } });\n`,
    );
    const older = spawnSync(process.execPath, ["--require", olderVersion, bin, "--help"], { encoding: "utf8" });
    expect(older.status).toBe(1);
    expect(older.stdout).toBe("");
    expect(older.stderr.trim()).toBe(
      `uptime-server needs Node.js 22.19.0 or later; this is Node.js 22.18.0 (${process.execPath}).`,
    );
    const ours = spawnSync(process.execPath, [bin, "--help"], { encoding: "utf8" });
    expect(ours.status, ours.stderr).toBe(0);
    expect(ours.stdout).toContain("uptime-server serve");
  });

  it("pulumi-uptime in a program, its provider and its command on an older Node.js say which Node.js they need", () => {
    // A preload makes this Node.js stand for Node.js 20, whose undici import crashes with an
    // error that names neither the version nor the fix.
    const older = join(dir, "node-20.cjs");
    writeFileSync(
      older,
      `Object.defineProperty(process, "versions", { value: { ...process.versions, node: "20.19.0" } });\n`,
    );
    const message = `pulumi-uptime needs Node.js 22.19.0 or later; this is Node.js 20.19.0 (${process.execPath}).`;
    for (const entry of ["pulumi-uptime", "pulumi-uptime/provider/runtime", "pulumi-uptime/drift"]) {
      const loaded = spawnSync(process.execPath, ["--require", older, "-e", `require(${JSON.stringify(entry)})`], {
        cwd: dir,
        encoding: "utf8",
      });
      expect(loaded.status, entry).toBe(1);
      expect(loaded.stderr, entry).toContain(`Error: ${message}`);
    }
    const bin = join(dir, "node_modules", ".bin", "pulumi-uptime");
    const command = spawnSync(process.execPath, ["--require", older, bin, "drift", "--stack", "dev"], {
      cwd: dir,
      encoding: "utf8",
    });
    expect(command.status).toBe(1);
    expect(command.stderr.trim()).toBe(message);
  });

  it.each([
    ["the test kit, then the package", ["pulumi-uptime-server/testing", "pulumi-uptime"]],
    ["the package, then the test kit", ["pulumi-uptime", "pulumi-uptime-server/testing"]],
  ])(
    "a test server in one process with the package (%s) serves its OpenAPI document",
    (_order, modules) => {
      // npm dedupes zod, so both packages' schemas meet in zod's one global registry.
      const script = `const loaded = ${JSON.stringify(modules)}.map((m) => require(m));
const kit = loaded.find((m) => m.startUptimeServer);
(async () => {
  const server = await kit.startUptimeServer();
  try {
    const res = await fetch(server.directUrl + "/api/v1/openapi.json");
    const doc = await res.json();
    console.log(res.status, Object.keys(doc.components?.schemas ?? {}).includes("Assertion") ? "Assertion" : JSON.stringify(doc));
  } finally {
    await server.close();
  }
})();
`;
      const out = spawnSync(process.execPath, ["-e", script], { cwd: dir, encoding: "utf8", timeout: 60_000 });
      expect(out.stderr).toBe("");
      expect(out.stdout.trim()).toBe("200 Assertion");
    },
    90_000,
  );

  const files = (tgz: string) => execFileSync("tar", ["tzf", tgz], { encoding: "utf8" }).trim().split("\n");

  it("pulumi-uptime ships its license, readme and built provider, with no maps, tests or sources", () => {
    const shipped = files(provider);
    expect(shipped).toEqual(
      expect.arrayContaining([
        "package/LICENSE",
        "package/README.md",
        "package/package.json",
        "package/dist/provider/index.js",
      ]),
    );
    expect(shipped.filter((f) => /\.map$|\.test\.|(?<!\.d)\.ts$/.test(f))).toEqual([]);
    expect(
      shipped.filter((f) => f.startsWith("package/dist/") && !/^package\/dist\/(node10\/)?(api|provider)\//.test(f)),
    ).toEqual([]);
    expect(readFileSync(join(REPO_ROOT, "LICENSE"), "utf8")).toMatch(/Apache License\s+Version 2\.0/);
  });

  it("pulumi-uptime exports its entry points and, for state written by earlier versions, its runtime only", () => {
    const pkg = JSON.parse(readFileSync(join(dir, "node_modules/pulumi-uptime/package.json"), "utf8"));
    expect(Object.keys(pkg.exports)).toEqual([
      ".",
      "./drift",
      "./orphans",
      "./test",
      "./trigger",
      "./provider/runtime",
      "./package.json",
    ]);
    const run = (code: string) => execFileSync(process.execPath, ["-e", code], { cwd: dir, encoding: "utf8" }).trim();
    expect(run('console.log(typeof require("pulumi-uptime/provider/runtime").providerOf)')).toBe("function");
    expect(() => run('require("pulumi-uptime/provider/kinds/fields")')).toThrow(/ERR_PACKAGE_PATH_NOT_EXPORTED/);
  });

  it("installs only the provider's runtime dependencies beside the program's own @pulumi/pulumi", () => {
    const pkg = JSON.parse(readFileSync(join(dir, "node_modules/pulumi-uptime/package.json"), "utf8"));
    expect(pkg.peerDependencies).toEqual({ "@pulumi/pulumi": expect.stringMatching(/^\^3\.\d+\.0$/) });
    expect(Object.keys(pkg.dependencies).sort()).toEqual([
      "acorn",
      "acorn-walk",
      "ipaddr.js",
      "leven",
      "p-throttle",
      "parse-duration",
      "re2js",
      "rrule",
      "undici",
      "zod",
    ]);
    expect(added.filter((p) => /fastify|nodemailer|pino|p-limit|lru-cache|@pulumi\//.test(nameOf(p)))).toEqual([]);
    // The dependencies and their own (rrule's tslib), where the SDK did not bring them: nothing else.
    const allowed = new Set(["pulumi-uptime", ...Object.keys(pkg.dependencies), "tslib"]);
    expect(added.filter((p) => !allowed.has(nameOf(p)))).toEqual([]);
    expect(added.map(nameOf)).toEqual(expect.arrayContaining(["pulumi-uptime", "zod", "rrule"]));
  });

  it.each(["node", "node16"] as const)(
    "types compile under the template tsconfig (moduleResolution %s), no skipLibCheck",
    (resolution) => {
      writeFileSync(join(dir, "index.ts"), PROGRAM);
      writeFileSync(join(dir, "kit.ts"), TEST_KIT);
      writeFileSync(join(dir, "tsconfig.json"), JSON.stringify(templateTsconfig(resolution, ["index.ts", "kit.ts"])));
      const tsc = join(dir, "node_modules/typescript/bin/tsc");
      const out = (() => {
        try {
          return execFileSync(process.execPath, [tsc, "--noEmit", "-p", "."], { cwd: dir, encoding: "utf8" });
        } catch (err) {
          return (err as { stdout: string }).stdout;
        }
      })();
      expect(out).toBe("");
    },
  );
});
