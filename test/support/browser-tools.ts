import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { browserCapability } from "../../server/checker/browser/run";

/**
 * Makes sure this machine can run browser checks: Chromium comes from the global set-up
 * (scripts/ensure-chromium.mjs); bubblewrap, the sandbox, is installed from Debian's package the
 * same way when it is missing and we run as root. Otherwise throws the reason, with its command.
 */
export function ensureBrowserTools(): void {
  if (!existsSync("/usr/bin/bwrap") && process.getuid?.() === 0 && existsSync("/usr/bin/apt-get")) {
    const options = {
      stdio: ["ignore", "inherit", "inherit"] as const,
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
    };
    execFileSync("apt-get", ["-o", "DPkg::Lock::Timeout=300", "install", "-y", "bubblewrap"], {
      ...options,
      stdio: [...options.stdio],
    });
  }
  const capability = browserCapability();
  if (!capability.ok) throw new Error(`browser checks cannot run on this machine: ${capability.reason}`);
}
