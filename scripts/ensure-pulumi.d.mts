/** Where the Pulumi CLI came from: the user's PATH, our cache, or a fresh Go build. */
export interface PulumiCli {
  binDir: string;
  version: string;
  source: "path" | "cache" | "build";
}
/** The @pulumi/pulumi version this checkout depends on. */
export function sdkVersion(): string;
/** Finds or builds (once, under a lock) the Pulumi CLI that matches the installed @pulumi/pulumi. */
export function ensurePulumi(): Promise<PulumiCli>;
/** Where the YAML and Python language hosts and the SDK generator (`uptime-sdkgen`) are. */
export interface PulumiHosts {
  binDir: string;
  source: "cache" | "build";
}
/** Finds or builds the YAML and Python language hosts and the SDK generator. */
export function ensureHosts(): Promise<PulumiHosts>;
/** Finds or builds the Go language host (tools/pulumi-language-go), in a cache entry of its own. */
export function ensureGoHost(): Promise<PulumiHosts>;
/** Finds or builds the Java language host and the Java SDK generator (tools/pulumi-language-java). */
export function ensureJavaTools(): Promise<PulumiHosts>;
