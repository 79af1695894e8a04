import { UptimeConfigError } from "./errors";

/** Where a setting came from, for messages (never the value itself). */
export type SettingSource = "connection" | "env" | "config";

/** Where the API is and which key to use. */
export interface Connection {
  /** Base URL of the service in normal form, e.g. `https://uptime.example.com` (no `/api/v1`). */
  baseUrl: string;
  /** API key, `uk_…`. Kept secret in state. */
  apiKey: string;
  /** Where the key came from: a resource's `connection`, the environment or stack config. */
  apiKeySource?: SettingSource;
}

/** Settings that may each be left out: resolved by `resolveConnection`. */
export interface PartialConnection {
  baseUrl?: string;
  apiKey?: string;
  /** Allows a plain `http://` base URL to a host that is not loopback (`true` or `"true"`). */
  allowInsecureHttp?: boolean | string;
}

/**
 * What the connection is for: `api` calls need a key; `public` ones (the status document) need
 * only the base URL.
 */
export type ConnectionMode = "api" | "public";

/** Where a setting is set, as the messages name it. */
export const SOURCE_NAMES: Record<SettingSource, { baseUrl: string; apiKey: string }> = {
  connection: { baseUrl: "the resource's `connection.baseUrl`", apiKey: "the resource's `connection.apiKey`" },
  env: { baseUrl: "the environment variable UPTIME_API_URL", apiKey: "the environment variable UPTIME_API_KEY" },
  config: { baseUrl: "the stack config `uptime:baseUrl`", apiKey: "the stack config `uptime:apiKey`" },
};

const NO_BASE_URL =
  "No service URL: set the stack config `pulumi config set uptime:baseUrl https://uptime.example.com`, " +
  "the environment variable UPTIME_API_URL, or a resource's `connection.baseUrl`";

/** The first setting given, with where it came from. */
function pick<K extends "baseUrl" | "apiKey">(
  key: K,
  explicit: PartialConnection | undefined,
  env: string | undefined,
  stackConfig: PartialConnection,
): { value?: string; source?: SettingSource } {
  if (explicit?.[key]) return { value: explicit[key], source: "connection" };
  if (env) return { value: env, source: "env" };
  if (stackConfig[key]) return { value: stackConfig[key], source: "config" };
  return {};
}

const truthy = (v: unknown) => v === true || (typeof v === "string" && /^(1|true|yes)$/i.test(v.trim()));

/**
 * Resolves the connection in one place. Precedence: the explicit argument (a resource's
 * `connection`), then the environment (`UPTIME_API_URL`, `UPTIME_API_KEY`), then stack config
 * (`uptime:baseUrl`, `uptime:apiKey`). There is no default URL: a key is never sent to a service
 * nobody named. A missing URL or key is an error here, before any request (the key only in `api`
 * mode), and so is a plain `http://` URL to a host that is not loopback, unless allowed by
 * `allowInsecureHttp` (connection), UPTIME_ALLOW_INSECURE_HTTP or `uptime:allowInsecureHttp`.
 */
export function resolveConnection(
  explicit: PartialConnection | undefined,
  stackConfig?: PartialConnection,
  env?: NodeJS.ProcessEnv,
): Connection;
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
): PartialConnection & { baseUrl: string; apiKeySource?: SettingSource } {
  const url = pick("baseUrl", explicit, env.UPTIME_API_URL, stackConfig);
  if (!url.value) throw new UptimeConfigError(NO_BASE_URL);
  const insecureOk = [explicit?.allowInsecureHttp, env.UPTIME_ALLOW_INSECURE_HTTP, stackConfig.allowInsecureHttp].some(
    truthy,
  );
  const baseUrl = checkBaseUrl(url.value, url.source as SettingSource, insecureOk);
  const key = pick("apiKey", explicit, env.UPTIME_API_KEY, stackConfig);
  if (mode === "public") return { baseUrl, apiKey: key.value };
  if (!key.value) {
    throw new UptimeConfigError(
      "No API key: set the stack config secret `pulumi config set --secret uptime:apiKey uk_…`, " +
        "the environment variable UPTIME_API_KEY, or a resource's `connection.apiKey`",
    );
  }
  if (!/^uk_\S+$/.test(key.value))
    throw new UptimeConfigError(
      `The API key from ${SOURCE_NAMES[key.source as SettingSource].apiKey} must start with uk_`,
    );
  return { baseUrl, apiKey: key.value, apiKeySource: key.source };
}

/** Loopback hosts: a plain http:// URL to them never leaves the machine. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase();
  return host === "localhost" || host.endsWith(".localhost") || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}

/**
 * The base URL in normal form: lower-case scheme and host, no default port, no trailing slash
 * (`HTTP://LocalHost:80/` → `http://localhost`). Two spellings of one URL compare equal.
 */
export function normalBaseUrl(baseUrl: string): string {
  const url = new URL(baseUrl);
  return url.origin + url.pathname.replace(/\/+$/, "");
}

/** The base URL in normal form; an error that names it and where it was set when it is refused. */
function checkBaseUrl(baseUrl: string, source: SettingSource, insecureOk: boolean): string {
  const where = SOURCE_NAMES[source].baseUrl;
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UptimeConfigError(`baseUrl (from ${where}) must be an absolute http(s) URL, got "${baseUrl}"`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new UptimeConfigError(`baseUrl (from ${where}) must be an http:// or https:// URL, got "${baseUrl}"`);
  }
  if (url.protocol === "http:" && !isLoopback(url.hostname) && !insecureOk) {
    throw new UptimeConfigError(
      `baseUrl (from ${where}) is plain http:// to ${url.hostname}, which would send the API key unencrypted: ` +
        "use https://, or allow it with `pulumi config set uptime:allowInsecureHttp true`, " +
        "UPTIME_ALLOW_INSECURE_HTTP=true, or the resource's `connection.allowInsecureHttp`",
    );
  }
  return normalBaseUrl(baseUrl);
}
