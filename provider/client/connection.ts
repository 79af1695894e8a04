import { UptimeConfigError } from "./errors";

/** Where the API is and which key to use. */
export interface Connection {
  /** Base URL of the service, e.g. `https://uptime.example.com` (no `/api/v1`). */
  baseUrl: string;
  /** API key, `uk_…`. Kept secret in state. */
  apiKey: string;
}

/** Settings that may each be left out: resolved by `resolveConnection`. */
export interface PartialConnection {
  baseUrl?: string;
  apiKey?: string;
}

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";

/**
 * What the connection is for: `api` calls need a key; `public` ones (the status document) need
 * only the base URL.
 */
export type ConnectionMode = "api" | "public";

/**
 * Resolves the connection in one place. Precedence: the explicit argument (a resource's
 * `connection`), then the environment (`UPTIME_API_URL`, `UPTIME_API_KEY`), then stack config
 * (`uptime:baseUrl`, `uptime:apiKey`), then the default base URL. A missing key is an error here,
 * before any request (in `api` mode).
 */
export function resolveConnection(explicit: PartialConnection | undefined, stackConfig?: PartialConnection, env?: NodeJS.ProcessEnv): Connection;
export function resolveConnection(
  explicit: PartialConnection | undefined,
  stackConfig: PartialConnection,
  env: NodeJS.ProcessEnv,
  mode: "public",
): PartialConnection & { baseUrl: string };
export function resolveConnection(
  explicit: PartialConnection | undefined,
  stackConfig: PartialConnection = {},
  env: NodeJS.ProcessEnv = process.env,
  mode: ConnectionMode = "api",
): PartialConnection & { baseUrl: string } {
  const baseUrl = checkBaseUrl(explicit?.baseUrl ?? env.UPTIME_API_URL ?? stackConfig.baseUrl ?? DEFAULT_BASE_URL);
  const apiKey = explicit?.apiKey ?? env.UPTIME_API_KEY ?? stackConfig.apiKey;
  if (mode === "public") return { baseUrl, apiKey };
  if (!apiKey) {
    throw new UptimeConfigError(
      "No API key: set the stack config secret `pulumi config set --secret uptime:apiKey uk_…`, " +
        "the environment variable UPTIME_API_KEY, or a resource's `connection.apiKey`",
    );
  }
  if (!/^uk_\S+$/.test(apiKey)) throw new UptimeConfigError("The API key must start with uk_");
  return { baseUrl, apiKey };
}

/** The base URL without trailing slashes; an error that names it when it is not http(s). */
function checkBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UptimeConfigError(`baseUrl must be an absolute http(s) URL, got "${baseUrl}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UptimeConfigError(`baseUrl must be an http:// or https:// URL, got "${baseUrl}"`);
  }
  return url.origin + url.pathname.replace(/\/+$/, "");
}
