import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildOnce, cacheRoot, run } from "../plugin/build/cache";
import { REPO_ROOT } from "./pulumi-engine";

/** The published packages: workspace folder → package name. */
export const PACKAGES = { provider: "pulumi-uptime", server: "pulumi-uptime-server" } as const;

/** The `@pulumi/pulumi` version the workspace (and the CLI it builds) uses. */
export const sdkVersion = (): string =>
  JSON.parse(readFileSync(join(REPO_ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version;

/** The workspace root's dev dependencies a Pulumi TypeScript program has too. */
export function programDevDependencies(): Record<string, string> {
  const root = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));
  const dev = root.devDependencies as Record<string, string>;
  return { typescript: dev.typescript!, "ts-node": dev["ts-node"]!, "@types/node": dev["@types/node"]! };
}

/** Packs a workspace package (built: npm run build) with `npm pack` into `dest`; returns the tarball's path. */
export function packPackage(folder: keyof typeof PACKAGES, dest: string): string {
  const name = execFileSync("npm", ["pack", "--silent", "--pack-destination", dest], {
    cwd: join(REPO_ROOT, folder),
    encoding: "utf8",
  })
    .trim()
    .split("\n")
    .pop() as string;
  return join(dest, name);
}

/** Runs `npm install` in `dir` quietly, from the local cache where it can. */
export function npmInstall(dir: string, args: string[] = []): void {
  execFileSync("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error", ...args], {
    cwd: dir,
    stdio: ["ignore", "inherit", "inherit"],
  });
}

/**
 * Packs both packages with `npm pack` and installs the tarballs, as a user would, into a folder
 * beside a Pulumi program's usual dev dependencies: `pulumi-uptime` as a dependency,
 * `pulumi-uptime-server` (the test kit) as a dev dependency. Returns that folder's node_modules;
 * engine tests link it into their program folders. Kept in the project's cache, keyed by the
 * tarballs, and installed once however many processes ask.
 */
export async function installPackedPackage(): Promise<string> {
  // A folder per run: checkouts that test side by side never remove each other's tarballs.
  const packDir = mkdtempSync(join(tmpdir(), "pulumi-uptime-pack-"));
  const tarballs = { provider: packPackage("provider", packDir), server: packPackage("server", packDir) };
  const hash = createHash("sha256");
  for (const tgz of Object.values(tarballs)) hash.update(readFileSync(tgz));
  const depsDir = join(cacheRoot(), "packed", hash.digest("hex").slice(0, 16));
  const modules = join(depsDir, "node_modules");
  const installed = () =>
    existsSync(join(modules, "pulumi-uptime", "package.json")) &&
    existsSync(join(modules, "pulumi-uptime-server", "package.json"));
  try {
    await buildOnce(depsDir, installed, async (staging) => install(staging, tarballs));
  } finally {
    rmSync(packDir, { recursive: true, force: true });
  }
  return modules;
}

/** Installs the tarballs into `staging` beside a program's dev dependencies. */
async function install(staging: string, tarballs: Record<keyof typeof PACKAGES, string>): Promise<void> {
  mkdirSync(staging, { recursive: true });
  for (const [folder, tgz] of Object.entries(tarballs))
    writeFileSync(join(staging, `${folder}.tgz`), readFileSync(tgz));
  writeFileSync(
    join(staging, "package.json"),
    JSON.stringify({
      name: "engine-test-programs",
      private: true,
      // The project pins the SDK the CLI was built for, as a user's lock file would.
      dependencies: { "pulumi-uptime": "file:./provider.tgz", "@pulumi/pulumi": sdkVersion() },
      devDependencies: {
        "pulumi-uptime-server": "file:./server.tgz",
        ...programDevDependencies(),
        yaml: JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).devDependencies.yaml,
        // The docs' policy pack compiles against it, as in a user's pack folder.
        "@pulumi/policy": JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8")).devDependencies[
          "@pulumi/policy"
        ],
      },
    }),
  );
  await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", "--loglevel=error"], { cwd: staging });
}
