/**
 * The Python tooling for programs that use the plugin's SDK: a virtual environment outside the
 * clone (cached, created on demand) with `pulumi` from PyPI, at the version of the CLI.
 * The v3.68-era Python language host ignores `runtime.options.virtualenv`: put `binDir` of this
 * environment first on PATH instead.
 */
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./bundle";

/** The cache folder shared with scripts/ensure-pulumi.mjs. */
export function cacheBase(): string {
  return process.env.PULUMI_UPTIME_CACHE ?? join(process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache"), "pulumi-uptime");
}

type EnsureModule = typeof import("../../scripts/ensure-pulumi.mjs", { with: { "resolution-mode": "import" } });
let ensure: EnsureModule | undefined;

/** Loads scripts/ensure-pulumi.mjs (an ES module) once. */
export async function loadEnsure(): Promise<EnsureModule> {
  ensure ??= (await import(pathToFileURL(join(ROOT, "scripts", "ensure-pulumi.mjs")).href)) as EnsureModule;
  return ensure;
}

/** The folder of the language hosts and `uptime-sdkgen` (call `loadEnsure()` first). */
export function ensureHostsBin(): string {
  if (!ensure) throw new Error("loadEnsure() must run before ensureHostsBin()");
  return ensure.ensureHosts().binDir;
}

const PULUMI_PYTHON = () => JSON.parse(readFileSync(join(ROOT, "node_modules/@pulumi/pulumi/package.json"), "utf8")).version as string;

function venvDir(): string {
  return join(cacheBase(), "python", `pulumi-${PULUMI_PYTHON()}`);
}

/** A venv at `dir` with these packages from PyPI, created once (in a staging folder, then renamed). */
function ensureVenv(dir: string, packages: readonly string[]): void {
  if (existsSync(join(dir, ".complete"))) return;
  const staging = `${dir}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  const host = process.env.PYTHON ?? "python3";
  execFileSync(host, ["-m", "venv", staging], { stdio: "inherit" });
  const pip = [join(staging, "bin", "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"];
  execFileSync(pip[0] as string, [...pip.slice(1), ...packages], { stdio: "inherit" });
  writeFileSync(join(staging, ".complete"), "");
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
}

/** Installs `wheel` into the venv at `dir` unless it is the one installed last. */
function installWheel(dir: string, wheel: string): void {
  const py = join(dir, "bin", "python");
  const marker = join(dir, ".uptime-wheel");
  if (existsSync(marker) && readFileSync(marker, "utf8") === wheel) return;
  // Uninstall first: a rebuilt wheel keeps its version number, and its dependencies still resolve.
  execFileSync(py, ["-m", "pip", "uninstall", "--quiet", "--yes", "pulumi_uptime"], { stdio: "inherit" });
  execFileSync(py, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", wheel], { stdio: "inherit" });
  writeFileSync(marker, wheel);
}

/** The venv's python (creating the venv on first use). */
export function python(): string {
  ensureVenv(venvDir(), [`pulumi==${PULUMI_PYTHON()}`, "setuptools", "wheel"]);
  return join(venvDir(), "bin", "python");
}

/** The type checker that checks Python programs against the generated SDK, pinned. */
export const MYPY = "mypy==2.4.1";

/**
 * The python of a venv (beside the engine tests' one) holding pulumi, mypy and this wheel: run
 * `<python> -m mypy` (the venv's scripts name the staging folder it was created in).
 */
export function mypyWith(wheel: string): string {
  const dir = join(cacheBase(), "python", `mypy-${MYPY.split("==")[1]}-pulumi-${PULUMI_PYTHON()}`);
  ensureVenv(dir, [`pulumi==${PULUMI_PYTHON()}`, MYPY]);
  installWheel(dir, wheel);
  return join(dir, "bin", "python");
}

/** The venv's bin folder with this wheel installed (reinstalled only when the wheel changed). */
export function venvWith(wheel: string): string {
  python();
  installWheel(venvDir(), wheel);
  return join(venvDir(), "bin");
}
