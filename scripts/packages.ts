/**
 * Lays out the two published packages from the build in dist/, after `tsc`:
 *
 * - `provider/dist` (package `pulumi-uptime`): dist/api and dist/provider;
 * - `server/dist` (package `pulumi-uptime-server`): dist/api and dist/server.
 *
 * The one schema module (`api/`) is compiled once and shipped inside each package, at the same
 * relative place as in the build, so both packages' `require("../../api")` resolve without a third
 * package. Each package also gets the LICENSE, and the provider the README, its links into the
 * repository made absolute (npm shows it as the package's page, outside the repository).
 *
 * `dist/node10/` holds the same declaration files for programs on TypeScript's `node` (node10)
 * module resolution, which the `pulumi new typescript` template uses (the package's
 * `typesVersions` points there). Under node10, `"zod"` resolves to zod's CommonJS declarations,
 * whose locale files need `esModuleInterop` (63 errors without `skipLibCheck`); those copies name
 * zod's ES module declarations instead. Drop them when zod's `.d.cts` files compile without
 * `esModuleInterop`.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const ROOT = join(__dirname, "..", "..");
const BUILD = join(ROOT, "dist");

/** Package folder → the build's folders it ships. */
export const PACKAGES: Record<string, string[]> = { provider: ["api", "provider"], server: ["api", "server"] };

/** zod specifiers as `tsc` writes them → the path of the same module's ES declarations. */
const ZOD_ESM: Record<string, string> = { zod: "zod/index.js", "zod/v4/core": "zod/v4/core/index.js" };

/**
 * The build's files of `folder` that come from a source file there now (a file moved or removed
 * since an earlier build leaves its old output in dist/), tests and source maps left out.
 */
function shippedFiles(folder: string): string[] {
  return readdirSync(join(BUILD, folder), { recursive: true, encoding: "utf8" }).filter((f) => {
    const source = f.match(/^(.*)\.(?:d\.ts|js)$/)?.[1];
    return source !== undefined && !source.endsWith(".test") && existsSync(join(ROOT, folder, `${source}.ts`));
  });
}

/** The declaration with zod named by file path (see the header). */
export function forNode10(declaration: string): string {
  return declaration.replace(
    /(from |import\()"(zod(?:\/v4\/core)?)"/g,
    (_all, lead: string, spec: string) => `${lead}"${ZOD_ESM[spec]}"`,
  );
}

/** Where the README's relative links point on the package's page. */
export const REPOSITORY_BLOB = "https://github.com/pulumi-uptime/pulumi-uptime/blob/main";

/** The README as the npm package page shows it: each relative link absolute, into the repository. */
export function packageReadme(text: string): string {
  return text.replace(/\]\((?!https?:|#|mailto:)([^)\s]+)\)/g, (_all, path: string) => `](${REPOSITORY_BLOB}/${path})`);
}

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

function assemble(pkg: string, folders: string[]): void {
  const out = join(ROOT, pkg, "dist");
  rmSync(out, { recursive: true, force: true });
  for (const folder of folders) {
    const from = join(BUILD, folder);
    if (!existsSync(from)) throw new Error(`${from} is missing: run tsc -p tsconfig.build.json first`);
    for (const file of shippedFiles(folder)) {
      const text = readFileSync(join(from, file), "utf8");
      write(join(out, folder, file), text);
      if (file.endsWith(".d.ts")) write(join(out, "node10", folder, file), forNode10(text));
    }
  }
  cpSync(join(ROOT, "LICENSE"), join(ROOT, pkg, "LICENSE"));
}

if (require.main === module) {
  for (const [pkg, folders] of Object.entries(PACKAGES)) assemble(pkg, folders);
  writeFileSync(join(ROOT, "provider", "README.md"), packageReadme(readFileSync(join(ROOT, "README.md"), "utf8")));
}
