import type * as pulumi from "@pulumi/pulumi";
// Subpaths, not the SDK root: its index loads the Automation API, which programs do not need.
import { secret } from "@pulumi/pulumi/output";

/** A connection for one resource: another service or account than the stack's default. */
export interface ConnectionArgs {
  /** Base URL of the service (no `/api/v1`). Defaults to `UPTIME_API_URL` or `uptime:baseUrl`. */
  baseUrl?: pulumi.Input<string>;
  /** API key of the account, `uk_…`. Kept secret in state. */
  apiKey?: pulumi.Input<string>;
  /**
   * Allows a plain `http://` base URL to a host that is not loopback (the key then travels
   * unencrypted). Also `uptime:allowInsecureHttp` or UPTIME_ALLOW_INSECURE_HTTP.
   */
  allowInsecureHttp?: pulumi.Input<boolean>;
}

/** The args with the named ones wrapped as secrets, so state never holds them in plaintext. */
export function secretInputs<T extends object>(args: T, names: readonly string[]): Record<string, unknown> {
  const out = { ...args } as Record<string, unknown>;
  for (const name of names) if (out[name] !== undefined) out[name] = secret(out[name]);
  return out;
}

/** The options with `additionalSecretOutputs` extended. */
export function withSecretOutputs(
  opts: pulumi.CustomResourceOptions | undefined,
  names: readonly string[],
): pulumi.CustomResourceOptions {
  return { ...opts, additionalSecretOutputs: [...(opts?.additionalSecretOutputs ?? []), ...names] };
}
