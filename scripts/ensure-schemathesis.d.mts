/** The Schemathesis release the API tests run. */
export const SCHEMATHESIS_VERSION: string;
/** The `schemathesis` executable, installing it into the project's cache (scripts/cache.mjs) first when missing. */
export function ensureSchemathesis(): Promise<string>;
