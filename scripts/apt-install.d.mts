/** Options of every ensure-* helper: who runs it and whether apt-get is there (tests pass their own). */
export interface AptOptions {
  env?: NodeJS.ProcessEnv;
  /** The user id (root installs the Debian package); default: this process's. */
  uid?: number;
  /** Whether apt-get is present; default: whether /usr/bin/apt-get exists. */
  hasApt?: boolean;
}
/** What a find-* helper answers: found, not installed by it. */
export type Found<T extends { source: string }> = Omit<T, "source"> & { source: Exclude<T["source"], "installed"> };
/** A tool found by `find`, or Debian's `pkg` installed as root and found by `findInstalled`; otherwise throws `missing`. */
export function findOrAptInstall<T>(
  options: { uid?: number; hasApt?: boolean },
  how: {
    tool: string;
    pkg: string;
    find: () => T | undefined;
    findInstalled: () => T | undefined;
    notInstalled: string;
    missing: (hasApt: boolean) => string;
  },
): T | (T & { source: "installed" });
