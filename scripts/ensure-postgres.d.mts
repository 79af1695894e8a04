import type { AptOptions, Found } from "./apt-install.mjs";
/** PostgreSQL's server binaries and where they were found (or that they were installed with apt-get). */
export interface Postgres {
  /** The folder holding initdb, pg_ctl and postgres. */
  bin: string;
  source: "env" | "system" | "path" | "installed";
}
/** Where to look; tests pass their own environment and folders. */
export interface PostgresOptions extends AptOptions {
  debianRoot?: string;
}
/** The command a user without root is told to run. */
export const INSTALL_COMMAND: string;
/** Finds PostgreSQL's server binaries without installing anything. */
export function findPostgres(options?: PostgresOptions): Found<Postgres> | undefined;
/** Finds PostgreSQL, installs Debian's `postgresql` as root, or throws with the exact command to run. */
export function ensurePostgres(options?: PostgresOptions): Postgres;
