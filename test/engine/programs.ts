import { rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { inject } from "vitest";
import { prepareProgram, REPO_ROOT } from "../../scripts/pulumi-engine";

/**
 * A copy of an example (or test program) in a temp folder, with node_modules linked to the
 * packed pulumi-uptime installation, as a user's project would have it.
 */
export function programCopy(path: string): { workDir: string; remove: () => void } {
  const workDir = prepareProgram(join(REPO_ROOT, path), {});
  rmSync(join(workDir, "node_modules"), { recursive: true, force: true });
  symlinkSync(inject("packedModules"), join(workDir, "node_modules"), "dir");
  return { workDir, remove: () => rmSync(workDir, { recursive: true, force: true }) };
}
