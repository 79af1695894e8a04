#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { LOCATION_NAME, LOCATION_NAME_RULE } from "../api";
import { CheckerAgent } from "./agents/agent";
import { buildApp } from "./app";
import { resolveOptions } from "./config";
import { backupDatabase, restoreDatabase, type BackupSummary } from "./ops/backup";
import { closeOnSignals } from "./ops/shutdown";
import { SecretBox } from "./secrets";
import { isPostgresUrl, Store } from "./store";

/** `serve`'s own defaults; the others are the server options' (`resolveOptions`). */
const SERVE_DEFAULTS = { port: 8080, host: "127.0.0.1", db: "uptime.db", logLevel: "info" } as const;
/** `agent`'s defaults: checks running at once, and results kept while the server cannot be reached. */
const AGENT_DEFAULTS = { concurrency: 64, maxBuffered: 10_000 } as const;
/** The server options' defaults, which the usage states. */
const OPTION_DEFAULTS = resolveOptions();

const USAGE = `uptime-server: the pulumi-uptime reference monitoring server

  uptime-server serve [--port ${SERVE_DEFAULTS.port}] [--host ${SERVE_DEFAULTS.host}] [--db ${SERVE_DEFAULTS.db}] [--min-interval-sec ${OPTION_DEFAULTS.minIntervalSec}]
                      [--monitor-limit N] [--rate-limit ${OPTION_DEFAULTS.rateLimit}] [--allow-private-targets]
                      [--rdap-bootstrap-url URL]   (env UPTIME_RDAP_BOOTSTRAP_URL; default IANA's RDAP bootstrap file)
                      [--dev-key-file FILE] [--secret-key-file FILE] [--log-level ${SERVE_DEFAULTS.logLevel}]
                      [--auth-failure-limit ${OPTION_DEFAULTS.authFailureLimit}] [--max-connections-per-address ${OPTION_DEFAULTS.maxConnectionsPerAddress}]
                      [--metrics-key-file FILE] [--location ${OPTION_DEFAULTS.location}] [--shutdown-timeout-sec ${OPTION_DEFAULTS.shutdownTimeoutMs / 1000}]
                      [--trust-proxy]   (behind a reverse proxy: client addresses from X-Forwarded-For)
                      [--no-checker]    (no built-in checker: only agents check, those of --location too)
                      [--lease-sec ${OPTION_DEFAULTS.leaseMs / 1000}] [--agent-live-sec ${OPTION_DEFAULTS.agentLiveMs / 1000}]
                      [--smtp-url-file FILE] [--smtp-from ADDRESS] [--public-url URL]
                      [--subscribe-limit-per-hour ${OPTION_DEFAULTS.subscribeLimitPerHour}] [--incident-rule-tick-sec ${OPTION_DEFAULTS.incidentRuleTickMs / 1000}]
                      (mail to channels and status page subscribers through SMTP: the URL, with its password,
                       from a file or env UPTIME_SMTP_URL_FILE / UPTIME_SMTP_URL; without one, mail goes to the outbox)
                      (env UPTIME_DEV_KEY: seeds a dev key; never pass a key on the command line)
  --metrics-key-file FILE (env UPTIME_METRICS_KEY_FILE): the key Prometheus sends to read /metrics
  uptime-server backup  --db uptime.db --to FILE    (online: while servers run; the key file is not copied)
  uptime-server restore --from FILE --db uptime.db [--secret-key-file FILE]   (refused while a server has the database open)
  uptime-server keys create --db uptime.db --account NAME [--name LABEL] [--monitor-limit N]
                            [--scope manage|agent --location NAME]   (agent: the agent API only, for one location)
  uptime-server agent --server URL --location NAME [--key-file FILE] [--allow-private-targets]
                      [--concurrency ${AGENT_DEFAULTS.concurrency}] [--max-buffered ${AGENT_DEFAULTS.maxBuffered}] [--socket PATH] [--agent-id ID]
                      [--rdap-bootstrap-url URL]   (env UPTIME_RDAP_BOOTSTRAP_URL; default IANA's RDAP bootstrap file)
                      (the agent key from --key-file, env UPTIME_AGENT_KEY_FILE or UPTIME_AGENT_KEY; probes follow
                       the agent's own outbound policy: --allow-private-targets lets them reach private addresses)
  uptime-server keys list   --db uptime.db [--account NAME]
  uptime-server keys revoke --db uptime.db KEY_ID
  uptime-server keys rotate-secret --db uptime.db   (new secret key; reseals every stored secret)
  --secret-key-file FILE (env UPTIME_SECRET_KEY_FILE): the key sealing secrets; default <db>.key
  --db (env UPTIME_DB): a SQLite file, or postgres://USER@HOST:PORT/DATABASE for PostgreSQL (several
                      replicas on one database; --secret-key-file then required, the same file on each)
  uptime-server outbox list --db uptime.db
`;

/** `parseArgs` options of one type, by name. */
function typed<T extends "string" | "boolean", N extends string>(type: T, names: readonly N[]): Record<N, { type: T }> {
  return Object.fromEntries(names.map((name) => [name, { type }])) as Record<N, { type: T }>;
}

/** The options `uptime-server` parses, of every command (docs/reference/server-cli.md documents each). */
export const OPTIONS = {
  ...typed("string", [
    "port",
    "host",
    "db",
    "min-interval-sec",
    "monitor-limit",
    "rate-limit",
    "dev-key",
    "dev-key-file",
    "log-level",
    "secret-key-file",
    "auth-failure-limit",
    "max-connections-per-address",
    "metrics-key-file",
    "location",
    "shutdown-timeout-sec",
    "to",
    "from",
    "account",
    "name",
    "scope",
    "lease-sec",
    "agent-live-sec",
    "server",
    "key-file",
    "concurrency",
    "max-buffered",
    "socket",
    "agent-id",
    "rdap-bootstrap-url",
    "smtp-url-file",
    "smtp-from",
    "public-url",
    "subscribe-limit-per-hour",
    "incident-rule-tick-sec",
  ]),
  ...typed("boolean", ["allow-private-targets", "trust-proxy", "no-checker"]),
  help: { type: "boolean", short: "h" },
} as const;

function int(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`--${option} must be a whole number, got "${value}"`);
  return Number(value);
}

function seconds(value: string | undefined, option: string): number | undefined {
  const n = int(value, option);
  return n === undefined ? undefined : n * 1000;
}

function need(value: string | undefined, option: string): string {
  if (!value) throw new Error(`--${option} is required`);
  return value;
}

/** The dev key from `--dev-key-file` or `UPTIME_DEV_KEY`: never from argv, which `ps` shows. */
function devKey(values: Record<string, string | boolean | undefined>): string | undefined {
  if (values["dev-key"] !== undefined) {
    throw new Error(
      "--dev-key was removed (the command line is visible in ps): use --dev-key-file FILE or UPTIME_DEV_KEY",
    );
  }
  const file = values["dev-key-file"] as string | undefined;
  if (file) return readFileSync(file, "utf8").trim();
  return process.env.UPTIME_DEV_KEY || undefined;
}

/** The database from `--db` or `UPTIME_DB`: a SQLite file or a PostgreSQL URL (`postgres://…`). */
function database(values: Record<string, string | boolean | undefined>): string | undefined {
  return (values.db as string | undefined) ?? (process.env.UPTIME_DB || undefined);
}

/** `backup` and `restore` copy a SQLite file; PostgreSQL has its own tools for both. */
function refusePostgres(db: string, command: "backup" | "restore"): void {
  if (!isPostgresUrl(db)) return;
  throw new Error(
    command === "backup"
      ? '--db: backup copies a SQLite file; back up a PostgreSQL database with pg_dump --format=custom --file FILE "$UPTIME_DB"'
      : '--db: restore replaces a SQLite file; restore a PostgreSQL database with pg_restore --clean --dbname "$UPTIME_DB" FILE, with every replica stopped',
  );
}

function secretKeyFile(values: Record<string, string | boolean | undefined>): string | undefined {
  return (values["secret-key-file"] as string | undefined) ?? (process.env.UPTIME_SECRET_KEY_FILE || undefined);
}

/** The metrics key from `--metrics-key-file` or `UPTIME_METRICS_KEY_FILE` (a file Prometheus can read too). */
function metricsKey(values: Record<string, string | boolean | undefined>): string | undefined {
  const file = (values["metrics-key-file"] as string | undefined) ?? (process.env.UPTIME_METRICS_KEY_FILE || undefined);
  return file ? readFileSync(file, "utf8").trim() : undefined;
}

/**
 * The SMTP relay from `--smtp-url-file`, env `UPTIME_SMTP_URL_FILE` or env `UPTIME_SMTP_URL`: never from
 * argv, since the URL carries the relay's password and `ps` shows the command line.
 */
function smtpUrl(values: Record<string, string | boolean | undefined>): string | undefined {
  const file = (values["smtp-url-file"] as string | undefined) ?? (process.env.UPTIME_SMTP_URL_FILE || undefined);
  return file ? readFileSync(file, "utf8").trim() : process.env.UPTIME_SMTP_URL || undefined;
}

function summary(s: BackupSummary): string {
  return `${s.monitors} monitors, ${s.channels} channels, ${s.statusPages} status pages, ${s.heartbeats} heartbeats`;
}

async function serve(values: Record<string, string | boolean | undefined>): Promise<void> {
  const shutdownSec = int(values["shutdown-timeout-sec"] as string, "shutdown-timeout-sec");
  const app = await buildApp({
    db: database(values) ?? SERVE_DEFAULTS.db,
    minIntervalSec: int(values["min-interval-sec"] as string, "min-interval-sec"),
    monitorLimit: int(values["monitor-limit"] as string, "monitor-limit") ?? null,
    rateLimit: int(values["rate-limit"] as string, "rate-limit"),
    allowPrivateTargets: Boolean(values["allow-private-targets"]),
    trustProxy: Boolean(values["trust-proxy"]),
    devKey: devKey(values),
    secretKeyFile: secretKeyFile(values),
    authFailureLimit: int(values["auth-failure-limit"] as string, "auth-failure-limit"),
    maxConnectionsPerAddress: int(values["max-connections-per-address"] as string, "max-connections-per-address"),
    metricsKey: metricsKey(values),
    location: values.location as string | undefined,
    checker: !values["no-checker"],
    leaseMs: seconds(values["lease-sec"] as string | undefined, "lease-sec"),
    agentLiveMs: seconds(values["agent-live-sec"] as string | undefined, "agent-live-sec"),
    shutdownTimeoutMs: shutdownSec === undefined ? undefined : shutdownSec * 1000,
    logger: { level: (values["log-level"] as string | undefined) ?? SERVE_DEFAULTS.logLevel },
    rdapBootstrapUrl: rdapBootstrapUrl(values),
    smtpUrl: smtpUrl(values),
    smtpFrom: (values["smtp-from"] as string | undefined) ?? (process.env.UPTIME_SMTP_FROM || undefined),
    publicUrl: (values["public-url"] as string | undefined) ?? (process.env.UPTIME_PUBLIC_URL || undefined),
    subscribeLimitPerHour: int(values["subscribe-limit-per-hour"] as string | undefined, "subscribe-limit-per-hour"),
    incidentRuleTickMs: seconds(values["incident-rule-tick-sec"] as string | undefined, "incident-rule-tick-sec"),
  });
  closeOnSignals(app, app.settings.shutdownTimeoutMs);
  await app.listen({
    port: int(values.port as string, "port") ?? SERVE_DEFAULTS.port,
    host: (values.host as string | undefined) ?? SERVE_DEFAULTS.host,
  });
}

/** `--rdap-bootstrap-url`, else env UPTIME_RDAP_BOOTSTRAP_URL, else none (IANA's file); an http(s) URL. */
function rdapBootstrapUrl(values: Record<string, string | boolean | undefined>): string | undefined {
  const raw =
    (values["rdap-bootstrap-url"] as string | undefined) ?? (process.env.UPTIME_RDAP_BOOTSTRAP_URL || undefined);
  if (raw !== undefined && !/^https?:\/\/[^\s/]+/.test(raw))
    throw new Error(
      `--rdap-bootstrap-url (env UPTIME_RDAP_BOOTSTRAP_URL) must be an http:// or https:// URL, got "${raw}"`,
    );
  return raw;
}

/** `--scope agent --location NAME` → the location; `--scope manage` (default) → null. */
function agentLocation(values: Record<string, string | boolean | undefined>): string | null {
  const scope = (values.scope as string | undefined) ?? "manage";
  if (scope === "manage") {
    if (values.location !== undefined) throw new Error("--location is for agent keys: add --scope agent");
    return null;
  }
  if (scope !== "agent") throw new Error(`--scope must be manage or agent, got "${scope}"`);
  return locationName(values.location as string | undefined);
}

function locationName(value: string | undefined): string {
  const name = need(value, "location");
  if (!LOCATION_NAME.test(name)) throw new Error(`--location ${LOCATION_NAME_RULE}, got "${name}"`);
  return name;
}

/** `uptime-server agent`: runs until SIGTERM/SIGINT, then delivers what it holds and exits. */
async function runAgent(values: Record<string, string | boolean | undefined>): Promise<void> {
  const file = (values["key-file"] as string | undefined) ?? (process.env.UPTIME_AGENT_KEY_FILE || undefined);
  const key = file ? readFileSync(file, "utf8").trim() : process.env.UPTIME_AGENT_KEY;
  if (!key)
    throw new Error(
      "an agent key is required: --key-file FILE (or env UPTIME_AGENT_KEY_FILE, UPTIME_AGENT_KEY); never on the command line",
    );
  const agent = new CheckerAgent({
    server: need(values.server as string | undefined, "server"),
    socketPath: values.socket as string | undefined,
    key,
    location: locationName(values.location as string | undefined),
    allowPrivateTargets: Boolean(values["allow-private-targets"]),
    concurrency: int(values.concurrency as string | undefined, "concurrency") ?? AGENT_DEFAULTS.concurrency,
    maxBuffered: int(values["max-buffered"] as string | undefined, "max-buffered") ?? AGENT_DEFAULTS.maxBuffered,
    agentId: values["agent-id"] as string | undefined,
    rdapBootstrapUrl: rdapBootstrapUrl(values),
    log: (line) => process.stderr.write(`uptime-agent: ${line}\n`),
  });
  const { done } = agent.start();
  process.stderr.write(
    `uptime-agent ${agent.client.agentId}: serving location ${values.location} for ${values.server}\n`,
  );
  const stop = () => {
    agent.stop().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
  await done;
}

async function withStore<T>(
  values: Record<string, string | boolean | undefined>,
  fn: (store: Store) => T | Promise<T>,
): Promise<T> {
  const store = await Store.open(need(database(values), "db"), { secretKeyFile: secretKeyFile(values) });
  try {
    // Awaited here: the store closes only once the command's work is done.
    return await fn(store);
  } finally {
    await store.close();
  }
}

export async function main(argv = process.argv.slice(2)): Promise<void> {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true });
  const [command, sub, arg] = positionals;
  if (values.help || !command) {
    process.stdout.write(USAGE);
    return;
  }
  switch (`${command} ${sub ?? ""}`.trim()) {
    case "serve":
      return serve(values);
    case "agent":
      return runAgent(values);
    case "keys create":
      return await withStore(values, async (store) => {
        const account = need(values.account, "account");
        const location = agentLocation(values);
        const { key, info } = await store.keys.create(account, values.name ?? null, undefined, location);
        const limit = int(values["monitor-limit"], "monitor-limit");
        if (limit !== undefined) await store.keys.setMonitorLimit(account, limit);
        const scope = location === null ? "" : ` (agent of location ${location}: the agent API only)`;
        process.stderr.write(
          `Created ${info.id} for account ${account}${scope}. The key is shown once; store it now:\n`,
        );
        process.stdout.write(`${key}\n`);
      });
    case "keys list":
      return await withStore(values, async (store) => {
        for (const k of await store.keys.list(values.account)) {
          const state = k.revoked_at ? `revoked ${k.revoked_at}` : "active";
          process.stdout.write(
            `${k.id}\t${k.account}\t${k.prefix}\t${k.name ?? ""}\t${k.created_at}\t${state}\t${k.scope}${k.location ? `:${k.location}` : ""}\n`,
          );
        }
      });
    case "keys revoke":
      return await withStore(values, async (store) => {
        if (!(await store.keys.revoke(need(arg, "KEY_ID")))) throw new Error(`no active key ${arg}`);
        process.stderr.write(`Revoked ${arg}.\n`);
      });
    case "keys rotate-secret": {
      const db = need(database(values), "db");
      const file = secretKeyFile(values) ?? (isPostgresUrl(db) ? need(undefined, "secret-key-file") : `${db}.key`);
      const id = SecretBox.addKey(file);
      return await withStore(values, async (store) => {
        const count = await store.reseal();
        process.stderr.write(
          `New secret key ${id} is current in ${file}; ${count} rows resealed. Older keys stay in the file for servers still running: remove them once every server has restarted.\n`,
        );
      });
    }
    case "backup": {
      const to = need(values.to as string | undefined, "to");
      refusePostgres(need(database(values), "db"), "backup");
      const s = await backupDatabase(need(database(values), "db"), to);
      process.stderr.write(
        `Backed up ${summary(s)} to ${to}. Its secrets are sealed by the key file (${secretKeyFile(values) ?? `${database(values)}.key`}), which is not in the backup: keep a copy of that file apart from it.\n`,
      );
      return;
    }
    case "restore": {
      const db = need(database(values), "db");
      refusePostgres(db, "restore");
      const s = await restoreDatabase(need(values.from as string | undefined, "from"), db, secretKeyFile(values));
      process.stderr.write(`Restored ${summary(s)} into ${db}.\n`);
      return;
    }
    case "outbox list":
      return await withStore(values, async (store) => {
        for (const m of await store.outbox.list()) {
          process.stdout.write(`${m.created_at}\t${m.recipient}\t${m.subject}\n`);
        }
      });
    default:
      throw new Error(`unknown command "${positionals.join(" ")}"\n\n${USAGE}`);
  }
}

/** Runs the command line of this process, and exits 1 with the message when it fails. */
export function run(): void {
  main().catch((err: Error) => {
    process.stderr.write(`uptime-server: ${err.message}\n`);
    process.exit(1);
  });
}

if (require.main === module) run();
