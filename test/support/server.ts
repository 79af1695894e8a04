import { randomBytes } from "node:crypto";
import type { FastifyInstance } from "fastify";
import { request } from "undici";
import { buildApp, type ServerOptionsInput } from "../../server/index";
import { headerFingerprint } from "../../server/services/monitor-reads";
import { freshDatabase, serverEngine } from "./store-engines";

/** A real reference server on a loopback port, with a dev key. */
export interface TestServer {
  app: FastifyInstance;
  url: string;
  key: string;
  /** Sends a request with the dev key (or `opts.key`; `null` for none) and parses the JSON answer. */
  call: (method: string, path: string, body?: unknown, opts?: CallOptions) => Promise<ApiAnswer>;
  /** What a monitor read shows for a secret header `name: value` of monitor `monitorId`: its fingerprint under this server's key. */
  shownHeader: (monitorId: string, name: string, value: string) => string;
  close: () => Promise<void>;
}

export interface CallOptions {
  key?: string | null;
  headers?: Record<string, string>;
  /** Raw body sent as is (with `headers` for its content type). */
  raw?: string;
}

export interface ApiAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
  body: any;
}

export const newKey = () => `uk_${randomBytes(24).toString("base64url")}`;

export async function startServer(options: ServerOptionsInput = {}): Promise<TestServer> {
  const key = options.devKey ?? newKey();
  // Under the postgres project a server without a database of its own gets a new PostgreSQL database.
  const database = options.db === undefined && serverEngine() === "postgres" ? await freshDatabase("postgres") : {};
  const app = await buildApp({
    logger: false,
    allowPrivateTargets: true,
    checker: false,
    ...database,
    ...options,
    devKey: key,
  });
  const address = await app.listen({ port: 0, host: "127.0.0.1" });
  const call = async (method: string, path: string, body?: unknown, opts: CallOptions = {}): Promise<ApiAnswer> => {
    const headers: Record<string, string> = { ...opts.headers };
    const useKey = opts.key === undefined ? key : opts.key;
    if (useKey) headers.authorization = `Bearer ${useKey}`;
    let payload: string | undefined = opts.raw;
    if (body !== undefined) {
      payload = JSON.stringify(body);
      headers["content-type"] ??= "application/json";
    }
    const res = await request(`${address}${path}`, { method: method as "GET", headers, body: payload });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, body: text ? JSON.parse(text) : undefined };
  };
  const shownHeader = (monitorId: string, name: string, value: string) =>
    headerFingerprint(app.store.secrets, monitorId, name, value);
  return { app, url: address, key, call, shownHeader, close: () => app.close() };
}

/** Creates a webhook channel (`config`: its `url`, maybe a `secret`) and answers it as the create did. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
export async function webhookChannel(server: Pick<TestServer, "call">, name: string, config: object): Promise<any> {
  return (await server.call("POST", "/api/v1/channels", { name, type: "webhook", config })).body.data;
}

/** Creates an email channel to `address` and answers it as the create did. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
export async function emailChannel(server: Pick<TestServer, "call">, name: string, address: string): Promise<any> {
  return (await server.call("POST", "/api/v1/channels", { name, type: "email", config: { address } })).body.data;
}

/**
 * Asks `server` to create a monitor of `fields` and answers as it did (refused or not): for tests where
 * only some fields matter. The monitor is named after its type and checked every 60 s unless `fields` say.
 */
export function postMonitor<A>(
  server: { call(method: string, path: string, body?: unknown): Promise<A> },
  fields: { type: string } & Record<string, unknown>,
): Promise<A> {
  return server.call("POST", "/api/v1/monitors", { name: fields.type, interval_sec: 60, ...fields });
}

/** Creates an http monitor of `url`, checked every 60 s (`over`: other fields, on top), and answers its id. */
export async function httpMonitorId(
  server: Pick<TestServer, "call">,
  name: string,
  url: string,
  over: Record<string, unknown> = {},
): Promise<string> {
  const res = await server.call("POST", "/api/v1/monitors", { name, type: "http", url, interval_sec: 60, ...over });
  if (res.status !== 201) throw new Error(`monitor ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/** The components of the page `coreStatusPageId` makes: their names, and the key of the manual one. */
export interface CorePageNames {
  /** Name of the component `api` (default "API"). */
  apiName?: string;
  /** Key of the manual component "Support desk" (default "desk"). */
  manualKey?: string;
}

/**
 * Creates a status page `slug` titled `title` (in `locale`, if given) with one section, Core: a
 * component `api` that shows `monitorId` and a manual component "Support desk"; answers its id
 * (throws, with the answer, when refused).
 */
export async function coreStatusPageId(
  server: Pick<TestServer, "call">,
  page: { slug: string; title: string; locale?: string },
  monitorId: string,
  { apiName = "API", manualKey = "desk" }: CorePageNames = {},
): Promise<string> {
  const res = await server.call("POST", "/api/v1/status-pages", {
    ...page,
    sections: [
      {
        name: "Core",
        components: [
          { key: "api", name: apiName, monitors: [monitorId] },
          { key: manualKey, name: "Support desk", rule: "manual" },
        ],
      },
    ],
  });
  if (res.status !== 201) throw new Error(`status page ${page.slug}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data.id as string;
}

/**
 * Opens an incident on status page `pageId` (`title`, first update `message`, `components` at their
 * states) and answers it; throws, with the answer, unless the server answers 201.
 */
export async function openIncident(
  server: Pick<TestServer, "call">,
  pageId: string,
  incident: { title: string; message: string; components: Record<string, string> },
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read arbitrary JSON answers
): Promise<any> {
  const res = await server.call("POST", `/api/v1/status-pages/${pageId}/incidents`, incident);
  if (res.status !== 201) throw new Error(`incident ${incident.title}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}
