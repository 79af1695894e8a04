// Subpaths, not the SDK root: its index loads the Automation API, which programs do not need.
import { Config } from "@pulumi/pulumi/config";
import type { ChannelTestResult, Heartbeat, Stats, StatusDocument } from "../../api";
import { clientFor } from "../client/client";
import { type Connection, type PartialConnection, resolveConnection } from "../client/connection";
import { UptimeApiError } from "../client/errors";
import { undici } from "../client/undici";

/** Options of every function: a connection other than the stack's. */
export interface FunctionOptions {
  connection?: PartialConnection;
}

/** The stack's `uptime:baseUrl`, `uptime:apiKey` and `uptime:allowInsecureHttp`. */
function stackConfig(): PartialConnection {
  const config = new Config("uptime");
  return {
    baseUrl: config.get("baseUrl"),
    apiKey: config.get("apiKey"),
    allowInsecureHttp: config.get("allowInsecureHttp"),
  };
}

/**
 * Where a function reads the stack's config: the program's by default; the native plugin passes
 * the config its provider was configured with (a plugin process has no program config).
 */
export type StackConfig = () => PartialConnection;

/** The connection a function call uses: `opts.connection`, then the environment, then the stack's config. */
export function connectionOf(opts: FunctionOptions = {}, stack: StackConfig = stackConfig): Connection {
  return resolveConnection(opts.connection, stack());
}

/** Heartbeats of a monitor over the last `hours` (1..720, default 24), newest first. */
export async function getMonitorHeartbeats(
  args: { monitorId: string; hours?: number },
  opts?: FunctionOptions,
  stack?: StackConfig,
): Promise<Heartbeat[]> {
  const res = await clientFor(connectionOf(opts, stack)).request<Heartbeat[]>(
    "GET",
    `/api/v1/monitors/${args.monitorId}/heartbeats`,
    {
      query: { hours: args.hours },
    },
  );
  return res.data;
}

/** Stats of a monitor over the last `days` UTC days (1..90, default 30). */
export async function getMonitorStats(
  args: { monitorId: string; days?: number },
  opts?: FunctionOptions,
  stack?: StackConfig,
): Promise<Stats> {
  const res = await clientFor(connectionOf(opts, stack)).request<Stats>(
    "GET",
    `/api/v1/monitors/${args.monitorId}/stats`,
    {
      query: { days: args.days },
    },
  );
  return res.data;
}

/** Delivers a `test` event to a channel now. */
export async function testChannel(args: { channelId: string }, opts?: FunctionOptions): Promise<ChannelTestResult> {
  const res = await clientFor(connectionOf(opts)).request<ChannelTestResult>(
    "POST",
    `/api/v1/channels/${args.channelId}/test`,
    {
      idempotencyKey: `test-${args.channelId}-${Date.now()}`,
    },
  );
  return res.data;
}

/**
 * The public status document of a status page (no key needed). The base URL is `args.baseUrl`,
 * else resolved like every connection's.
 */
export async function getStatusDocument(
  args: { slug: string; baseUrl?: string },
  opts: FunctionOptions = {},
  stack: StackConfig = stackConfig,
): Promise<StatusDocument> {
  const explicit = { ...opts.connection, baseUrl: args.baseUrl ?? opts.connection?.baseUrl };
  const { baseUrl } = resolveConnection(explicit, stack(), process.env, "public");
  const res = await undici().request(`${baseUrl}/api/status/${encodeURIComponent(args.slug)}.json`);
  const body = (await res.body.json()) as {
    ok: boolean;
    data?: StatusDocument;
    error?: { code: string; message: string };
  };
  if (!body.ok || !body.data) {
    throw new UptimeApiError(body.error?.code ?? "unknown_error", res.statusCode, body.error?.message ?? "no document");
  }
  return body.data;
}
