import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "./pulumi-engine";

const sdkVersion = (): string =>
  JSON.parse(readFileSync(join(REPO_ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version;

/**
 * Packs this package with `npm pack` and installs the tarball, as a user would, into a folder
 * beside a Pulumi program's usual dev dependencies. Returns that folder's node_modules; engine
 * tests link it into their program folders. Reused while the tarball is unchanged.
 */
export function installPackedPackage(): string {
  // A folder per run: checkouts that test side by side never remove each other's tarball.
  const packDir = mkdtempSync(join(tmpdir(), "pulumi-uptime-pack-"));
  const tgzName = execFileSync("npm", ["pack", "--silent", "--pack-destination", packDir], { cwd: REPO_ROOT, encoding: "utf8" })
    .trim()
    .split("\n")
    .pop() as string;
  const tgz = join(packDir, tgzName);
  const hash = createHash("sha256").update(readFileSync(tgz)).digest("hex").slice(0, 16);
  const depsDir = join(tmpdir(), `pulumi-uptime-deps-${hash}`);
  const modules = join(depsDir, "node_modules");
  if (existsSync(join(modules, "pulumi-uptime", "package.json"))) {
    rmSync(packDir, { recursive: true, force: true });
    return modules;
  }

  const root = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));
  const staging = `${depsDir}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const stagedTgz = join(staging, "pulumi-uptime.tgz");
  writeFileSync(stagedTgz, readFileSync(tgz));
  rmSync(packDir, { recursive: true, force: true });
  writeFileSync(
    join(staging, "package.json"),
    JSON.stringify({
      name: "engine-test-programs",
      private: true,
      // The project pins the SDK the CLI was built for, as a user's lock file would.
      dependencies: { "pulumi-uptime": "file:./pulumi-uptime.tgz", "@pulumi/pulumi": sdkVersion() },
      devDependencies: {
        typescript: root.devDependencies.typescript,
        "ts-node": root.devDependencies["ts-node"],
        "@types/node": root.devDependencies["@types/node"],
        yaml: root.devDependencies.yaml,
      },
    }),
  );
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: staging,
    stdio: ["ignore", "inherit", "inherit"],
  });
  try {
    if (!existsSync(join(modules, "pulumi-uptime", "package.json"))) rmSync(depsDir, { recursive: true, force: true });
    renameSync(staging, depsDir);
  } catch (err) {
    // Another checkout installed the same tarball meanwhile: use theirs, never remove it.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(join(modules, "pulumi-uptime", "package.json"))) throw err;
  }
  return modules;
}
