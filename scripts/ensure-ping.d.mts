import type { AptOptions } from "./apt-install.mjs";
/** A working `ping` and where it was found (or that it was installed with apt-get). */
export interface Ping {
  path: string;
  source: "path" | "installed";
}
/** Where to look; tests pass their own environment. */
export type PingOptions = AptOptions;
/** The command a user without root is told to run. */
export const INSTALL_COMMAND: string;
/** What lets an installed ping send without root (either one). */
export const PERMISSION_COMMANDS: string[];
/** Finds a working ping on PATH without installing anything; throws when it may not send. */
export function findPing(options?: PingOptions): { path: string; source: "path" } | undefined;
/** Finds ping, installs Debian's `iputils-ping` as root, or throws with the exact command to run. */
export function ensurePing(options?: PingOptions): Ping;
