import type * as Undici from "undici";

let loaded: typeof Undici | undefined;

/**
 * undici, loaded at the first request rather than with the package: loading it takes about a sixth
 * of the package's load time, and most processes that load the package send nothing (a program
 * declaring resources, a provider asked only to check or diff them).
 */
export function undici(): typeof Undici {
  loaded ??= require("undici") as typeof Undici;
  return loaded;
}
