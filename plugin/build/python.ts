/**
 * The Python tooling for programs that use the plugin's SDK: virtual environments in the project's
 * cache (plugin/build/cache.ts), made once on demand, with `pulumi` from PyPI at the version of the CLI.
 * The v3.68-era Python language host ignores `runtime.options.virtualenv`: put `binDir` of this
 * environment first on PATH instead.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./bundle";
import { cacheRoot, run, venvOnce, withLock } from "./cache";

type EnsureModule = typeof import("../../scripts/ensure-pulumi.mjs", { with: { "resolution-mode": "import" } });
let ensure: EnsureModule | undefined;

/** Loads scripts/ensure-pulumi.mjs (an ES module) once. */
export async function loadEnsure(): Promise<EnsureModule> {
  ensure ??= (await import(pathToFileURL(join(ROOT, "scripts", "ensure-pulumi.mjs")).href)) as EnsureModule;
  return ensure;
}

/** The folder of the language hosts and `uptime-sdkgen`, built first when missing. */
export async function ensureHostsBin(): Promise<string> {
  return (await (await loadEnsure()).ensureHosts()).binDir;
}

const PULUMI_PYTHON = () =>
  JSON.parse(readFileSync(join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version as string;

/**
 * What the SDK's venv holds. `pip wheel --no-build-isolation` builds the SDK's wheel with this
 * venv's setuptools: 70.1 and later have `bdist_wheel` built in, with no `wheel` package. Pinned
 * from below because pip keeps whatever setuptools the venv starts with (65.5 on Python 3.11).
 */
const SDK_VENV = () => [`pulumi==${PULUMI_PYTHON()}`, "setuptools>=70.1"];

/** The type checker that checks Python programs against the generated SDK, pinned. */
export const MYPY = "mypy==2.4.1";

/** A venv's folder, named for what it holds: changing the package list makes a new one. */
function venvDir(name: string, packages: readonly string[]): string {
  const key = createHash("sha256").update(packages.join("\n")).digest("hex").slice(0, 8);
  return join(cacheRoot(), "python", `${name}-${key}`);
}

/** Installs `wheel` into the venv at `dir` unless it is the one installed last. */
async function installWheel(dir: string, wheel: string): Promise<void> {
  const py = join(dir, "bin", "python");
  const marker = join(dir, ".uptime-wheel");
  const installed = () => existsSync(marker) && readFileSync(marker, "utf8") === wheel;
  if (installed()) return;
  await withLock(dir, async () => {
    if (installed()) return;
    // Uninstall first: a rebuilt wheel keeps its version number, and its dependencies still resolve.
    await run(py, ["-m", "pip", "uninstall", "--quiet", "--yes", "pulumi_uptime"]);
    await run(py, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel]);
    writeFileSync(marker, wheel);
  });
}

/** The SDK venv's python (making the venv on first use). */
export async function python(): Promise<string> {
  const dir = venvDir(`pulumi-${PULUMI_PYTHON()}`, SDK_VENV());
  await venvOnce(dir, process.env.PYTHON ?? "python3", SDK_VENV());
  return join(dir, "bin", "python");
}

/** The python of a venv (beside the SDK's one) holding pulumi, mypy and this wheel: run `<python> -m mypy`. */
export async function mypyWith(wheel: string): Promise<string> {
  const packages = [`pulumi==${PULUMI_PYTHON()}`, MYPY];
  const dir = venvDir(`mypy-${MYPY.split("==")[1]}-pulumi-${PULUMI_PYTHON()}`, packages);
  await venvOnce(dir, process.env.PYTHON ?? "python3", packages);
  await installWheel(dir, wheel);
  return join(dir, "bin", "python");
}

/** The SDK venv's bin folder with this wheel installed (reinstalled only when the wheel changed). */
export async function venvWith(wheel: string): Promise<string> {
  const py = await python();
  const dir = join(py, "..", "..");
  await installWheel(dir, wheel);
  return join(dir, "bin");
}
