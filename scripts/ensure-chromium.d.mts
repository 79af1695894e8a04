import type { AptOptions, Found } from "./apt-install.mjs";
/** A working Chromium and where it was found (or that it was installed with apt-get). */
export interface Chromium {
  path: string;
  version: string;
  source: "env" | "system" | "path" | "installed";
}
/** Where to look; tests pass their own environment and system paths. */
export interface ChromiumOptions extends AptOptions {
  systemPaths?: string[];
}
/** The command a user without root is told to run. */
export const INSTALL_COMMAND: string;
/** Finds a working Chromium without installing anything. */
export function findChromium(options?: ChromiumOptions): Found<Chromium> | undefined;
/** Finds Chromium, installs Debian's `chromium` as root, or throws with the exact command to run. */
export function ensureChromium(options?: ChromiumOptions): Chromium;
