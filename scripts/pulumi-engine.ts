/**
 * Offline settings for the real Pulumi engine, shared by the tests, the demo and the benchmarks:
 * a `file://` backend, a private PULUMI_HOME, a fixed passphrase, no update checks and no plugin
 * downloads, and the CLI from scripts/ensure-pulumi.mjs.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import { LocalWorkspace, PulumiCommand, type Stack } from "@pulumi/pulumi/automation";

/** The repository root: the nearest folder up from here whose package.json is the workspace's. */
export const REPO_ROOT = findRoot(__dirname);

function findRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    try {
      if (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).name === "pulumi-uptime-workspace") return dir;
    } catch {
      // no package.json here
    }
    if (dirname(dir) === dir) throw new Error(`no pulumi-uptime checkout above ${from}`);
  }
}

/** A private Pulumi installation: CLI, state folder and the environment every command gets. */
export interface OfflineEngine {
  /** The folder holding `pulumi`, the Node language host and the dynamic-provider plugin. */
  binDir: string;
  /** The folder everything of this engine lives in (backend, PULUMI_HOME); removed by `dispose`. */
  stateDir: string;
  command: PulumiCommand;
  envVars: Record<string, string>;
  /** Creates (or selects) a stack of the program in `workDir`. */
  stack(workDir: string, stackName?: string): Promise<Stack>;
  dispose(): void;
}

export interface OfflineEngineOptions {
  /** Folder for the backend and PULUMI_HOME; a fresh temp folder by default. */
  stateDir?: string;
  /** Extra environment for the program and the dynamic providers. */
  env?: Record<string, string>;
  /**
   * Whether each program run type-checks the program (ts-node's default, several seconds of CPU
   * per run). Off by default: test/engine/programs-typecheck.test.ts checks every program once
   * with `tsc`, so the many runs of one program need not repeat it.
   */
  typeCheck?: boolean;
}

/**
 * The Automation API's handle on the CLI installed under `root`, made once per process: making one
 * runs `pulumi version` (about 0.2 CPU seconds), and a test file makes an engine per stack.
 */
const commands = new Map<string, Promise<PulumiCommand>>();
function pulumiCommand(root: string): Promise<PulumiCommand> {
  let command = commands.get(root);
  if (!command) {
    command = PulumiCommand.get({ root });
    commands.set(root, command);
    command.catch(() => commands.delete(root));
  }
  return command;
}

/** Builds or finds the CLI (see scripts/ensure-pulumi.mjs) and returns the offline engine settings. */
export async function offlineEngine(options: OfflineEngineOptions = {}): Promise<OfflineEngine> {
  const { ensurePulumi }: typeof import("./ensure-pulumi.mjs", { with: { "resolution-mode": "import" } }) =
    await import(pathToFileURL(join(REPO_ROOT, "scripts", "ensure-pulumi.mjs")).href);
  const cli = await ensurePulumi();
  const stateDir = options.stateDir ?? mkdtempSync(join(tmpdir(), "pulumi-uptime-engine-"));
  const backend = join(stateDir, "backend");
  const home = join(stateDir, "home");
  mkdirSync(backend, { recursive: true });
  mkdirSync(home, { recursive: true });
  // The language host and the dynamic-provider plugin run `node` from PATH: put Node 24 (the
  // `node` devDependency) first so they never pick the system's older Node.
  const path = [cli.binDir, join(REPO_ROOT, "node_modules", ".bin"), process.env.PATH ?? ""].join(delimiter);
  const envVars: Record<string, string> = {
    PATH: path,
    PULUMI_HOME: home,
    PULUMI_BACKEND_URL: `file://${backend}`,
    PULUMI_CONFIG_PASSPHRASE: "pulumi-uptime-offline",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_NODEJS_TRANSPILE_ONLY: options.typeCheck ? "false" : "true",
    ...options.env,
  };
  const command = await pulumiCommand(dirname(cli.binDir));
  return {
    binDir: cli.binDir,
    stateDir,
    command,
    envVars,
    stack: (workDir, stackName = "dev") =>
      LocalWorkspace.createOrSelectStack({ stackName, workDir }, { pulumiCommand: command, envVars }),
    dispose: () => rmSync(stateDir, { recursive: true, force: true }),
  };
}

/**
 * Copies the program folder `source` into a fresh temp folder and links packages into its
 * `node_modules` (name -> folder), so the program runs without an npm install and the source
 * tree stays clean. Returns the new folder.
 */
export function prepareProgram(source: string, links: Record<string, string>): string {
  const workDir = mkdtempSync(join(tmpdir(), "pulumi-uptime-program-"));
  cpSync(source, workDir, { recursive: true, filter: (from) => !from.includes("node_modules") });
  for (const [name, target] of Object.entries(links)) {
    const at = join(workDir, "node_modules", name);
    mkdirSync(dirname(at), { recursive: true });
    rmSync(at, { recursive: true, force: true });
    symlinkSync(target, at, "dir");
  }
  return workDir;
}
