/** A working Chromium and where it was found (or that it was installed with apt-get). */
export interface Chromium {
  path: string;
  version: string;
  source: "env" | "system" | "path" | "installed";
}
/** Where to look; tests pass their own environment and system paths. */
export interface ChromiumOptions {
  env?: NodeJS.ProcessEnv;
  systemPaths?: string[];
  /** The user id (root installs the Debian package); default: this process's. */
  uid?: number;
  /** Whether apt-get is present; default: whether /usr/bin/apt-get exists. */
  hasApt?: boolean;
}
/** The command a user without root is told to run. */
export const INSTALL_COMMAND: string;
/** Finds a working Chromium without installing anything. */
export function findChromium(
  options?: ChromiumOptions,
): (Omit<Chromium, "source"> & { source: "env" | "system" | "path" }) | undefined;
/** Finds Chromium, installs Debian's `chromium` as root, or throws with the exact command to run. */
export function ensureChromium(options?: ChromiumOptions): Chromium;
