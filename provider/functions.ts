import * as pulumi from "@pulumi/pulumi";
import { request } from "undici";
import type { ChannelTestResult, Heartbeat, Stats, StatusDocument } from "../api";
import { clientFor } from "./client";
import { type Connection, type PartialConnection, resolveConnection } from "./connection";
import { UptimeApiError } from "./errors";

/** Options of every function: a connection other than the stack's. */
export interface FunctionOptions {
  connection?: PartialConnection;
}

function connection(opts: FunctionOptions = {}): Connection {
  const config = new pulumi.Config("uptime");
  return resolveConnection(opts.connection, { baseUrl: config.get("baseUrl"), apiKey: config.get("apiKey") });
}

/** Heartbeats of a monitor over the last `hours` (1..720, default 24), newest first. */
export async function getMonitorHeartbeats(
  args: { monitorId: string; hours?: number },
  opts?: FunctionOptions,
): Promise<Heartbeat[]> {
  const res = await clientFor(connection(opts)).request<Heartbeat[]>("GET", `/api/v1/monitors/${args.monitorId}/heartbeats`, {
    query: { hours: args.hours },
  });
  return res.data;
}

/** Stats of a monitor over the last `days` UTC days (1..90, default 30). */
export async function getMonitorStats(args: { monitorId: string; days?: number }, opts?: FunctionOptions): Promise<Stats> {
  const res = await clientFor(connection(opts)).request<Stats>("GET", `/api/v1/monitors/${args.monitorId}/stats`, {
    query: { days: args.days },
  });
  return res.data;
}

/** Delivers a `test` event to a channel now. */
export async function testChannel(args: { channelId: string }, opts?: FunctionOptions): Promise<ChannelTestResult> {
  const res = await clientFor(connection(opts)).request<ChannelTestResult>("POST", `/api/v1/channels/${args.channelId}/test`, {
    idempotencyKey: `test-${args.channelId}-${Date.now()}`,
  });
  return res.data;
}

/** The public status document of a status page (no key needed). */
export async function getStatusDocument(args: { slug: string; baseUrl?: string }): Promise<StatusDocument> {
  const config = new pulumi.Config("uptime");
  const baseUrl = args.baseUrl ?? process.env.UPTIME_API_URL ?? config.get("baseUrl") ?? "http://127.0.0.1:8080";
  const res = await request(`${baseUrl.replace(/\/+$/, "")}/api/status/${encodeURIComponent(args.slug)}.json`);
  const body = (await res.body.json()) as { ok: boolean; data?: StatusDocument; error?: { code: string; message: string } };
  if (!body.ok || !body.data) {
    throw new UptimeApiError(body.error?.code ?? "unknown_error", res.statusCode, body.error?.message ?? "no document");
  }
  return body.data;
}
