/** The Schemathesis release the API tests run. */
export const SCHEMATHESIS_VERSION: string;
/** The `schemathesis` executable, installing it into ~/.cache/pulumi-uptime first when missing. */
export function ensureSchemathesis(): string;
