#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { buildApp } from "./app";
import { backupDatabase, restoreDatabase, type BackupSummary } from "./ops/backup";
import { closeOnSignals } from "./ops/shutdown";
import { SecretBox } from "./secrets";
import { Store } from "./store";

const USAGE = `uptime-server: the pulumi-uptime reference monitoring server

  uptime-server serve [--port 8080] [--host 127.0.0.1] [--db uptime.db] [--min-interval-sec 30]
                      [--monitor-limit N] [--rate-limit 600] [--allow-private-targets]
                      [--dev-key-file FILE] [--secret-key-file FILE] [--log-level info]
                      [--auth-failure-limit 20] [--max-connections-per-address 256]
                      [--metrics-key-file FILE] [--location local] [--shutdown-timeout-sec 20]
                      [--trust-proxy]   (behind a reverse proxy: client addresses from X-Forwarded-For)
                      (env UPTIME_DEV_KEY: seeds a dev key; never pass a key on the command line)
  --metrics-key-file FILE (env UPTIME_METRICS_KEY_FILE): the key Prometheus sends to read /metrics
  uptime-server backup  --db uptime.db --to FILE    (online: while servers run; the key file is not copied)
  uptime-server restore --from FILE --db uptime.db [--secret-key-file FILE]   (stop the server first)
  uptime-server keys create --db uptime.db --account NAME [--name LABEL] [--monitor-limit N]
  uptime-server keys list   --db uptime.db [--account NAME]
  uptime-server keys revoke --db uptime.db KEY_ID
  uptime-server keys rotate-secret --db uptime.db   (new secret key; reseals every stored secret)
  --secret-key-file FILE (env UPTIME_SECRET_KEY_FILE): the key sealing secrets; default <db>.key
  uptime-server outbox list --db uptime.db
`;

const OPTIONS = {
  port: { type: "string" },
  host: { type: "string" },
  db: { type: "string" },
  "min-interval-sec": { type: "string" },
  "monitor-limit": { type: "string" },
  "rate-limit": { type: "string" },
  "allow-private-targets": { type: "boolean" },
  "trust-proxy": { type: "boolean" },
  "dev-key": { type: "string" },
  "dev-key-file": { type: "string" },
  "log-level": { type: "string" },
  "secret-key-file": { type: "string" },
  "auth-failure-limit": { type: "string" },
  "max-connections-per-address": { type: "string" },
  "metrics-key-file": { type: "string" },
  location: { type: "string" },
  "shutdown-timeout-sec": { type: "string" },
  to: { type: "string" },
  from: { type: "string" },
  account: { type: "string" },
  name: { type: "string" },
  help: { type: "boolean", short: "h" },
} as const;

function int(value: string | undefined, option: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`--${option} must be a whole number, got "${value}"`);
  return Number(value);
}

function need(value: string | undefined, option: string): string {
  if (!value) throw new Error(`--${option} is required`);
  return value;
}

/** The dev key from `--dev-key-file` or `UPTIME_DEV_KEY`: never from argv, which `ps` shows. */
function devKey(values: Record<string, string | boolean | undefined>): string | undefined {
  if (values["dev-key"] !== undefined) {
    throw new Error("--dev-key was removed (the command line is visible in ps): use --dev-key-file FILE or UPTIME_DEV_KEY");
  }
  const file = values["dev-key-file"] as string | undefined;
  if (file) return readFileSync(file, "utf8").trim();
  return process.env.UPTIME_DEV_KEY || undefined;
}

function secretKeyFile(values: Record<string, string | boolean | undefined>): string | undefined {
  return (values["secret-key-file"] as string | undefined) ?? (process.env.UPTIME_SECRET_KEY_FILE || undefined);
}

/** The metrics key from `--metrics-key-file` or `UPTIME_METRICS_KEY_FILE` (a file Prometheus can read too). */
function metricsKey(values: Record<string, string | boolean | undefined>): string | undefined {
  const file = (values["metrics-key-file"] as string | undefined) ?? (process.env.UPTIME_METRICS_KEY_FILE || undefined);
  return file ? readFileSync(file, "utf8").trim() : undefined;
}

function summary(s: BackupSummary): string {
  return `${s.monitors} monitors, ${s.channels} channels, ${s.statusPages} status pages, ${s.heartbeats} heartbeats`;
}

async function serve(values: Record<string, string | boolean | undefined>): Promise<void> {
  const shutdownSec = int(values["shutdown-timeout-sec"] as string, "shutdown-timeout-sec");
  const app = await buildApp({
    db: (values.db as string | undefined) ?? "uptime.db",
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
    shutdownTimeoutMs: shutdownSec === undefined ? undefined : shutdownSec * 1000,
    logger: { level: (values["log-level"] as string | undefined) ?? "info" },
  });
  closeOnSignals(app, app.settings.shutdownTimeoutMs);
  await app.listen({
    port: int(values.port as string, "port") ?? 8080,
    host: (values.host as string | undefined) ?? "127.0.0.1",
  });
}

function withStore<T>(values: Record<string, string | boolean | undefined>, fn: (store: Store) => T): T {
  const store = Store.open(need(values.db as string | undefined, "db"), { secretKeyFile: secretKeyFile(values) });
  try {
    return fn(store);
  } finally {
    store.close();
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
    case "keys create":
      return withStore(values, (store) => {
        const account = need(values.account, "account");
        const { key, info } = store.keys.create(account, values.name ?? null);
        const limit = int(values["monitor-limit"], "monitor-limit");
        if (limit !== undefined) store.keys.setMonitorLimit(account, limit);
        process.stderr.write(
          `Created ${info.id} for account ${account}. The key is shown once; store it now:\n`,
        );
        process.stdout.write(`${key}\n`);
      });
    case "keys list":
      return withStore(values, (store) => {
        for (const k of store.keys.list(values.account)) {
          const state = k.revoked_at ? `revoked ${k.revoked_at}` : "active";
          process.stdout.write(
            `${k.id}\t${k.account}\t${k.prefix}\t${k.name ?? ""}\t${k.created_at}\t${state}\n`,
          );
        }
      });
    case "keys revoke":
      return withStore(values, (store) => {
        if (!store.keys.revoke(need(arg, "KEY_ID"))) throw new Error(`no active key ${arg}`);
        process.stderr.write(`Revoked ${arg}.\n`);
      });
    case "keys rotate-secret": {
      const file = secretKeyFile(values) ?? `${need(values.db, "db")}.key`;
      const id = SecretBox.addKey(file);
      return withStore(values, (store) => {
        const count = store.reseal();
        process.stderr.write(
          `New secret key ${id} is current in ${file}; ${count} rows resealed. Older keys stay in the file for servers still running: remove them once every server has restarted.\n`,
        );
      });
    }
    case "backup": {
      const to = need(values.to as string | undefined, "to");
      const s = await backupDatabase(need(values.db as string | undefined, "db"), to);
      process.stderr.write(
        `Backed up ${summary(s)} to ${to}. Its secrets are sealed by the key file (${secretKeyFile(values) ?? `${values.db}.key`}), which is not in the backup: keep a copy of that file apart from it.\n`,
      );
      return;
    }
    case "restore": {
      const db = need(values.db as string | undefined, "db");
      const s = restoreDatabase(need(values.from as string | undefined, "from"), db, secretKeyFile(values));
      process.stderr.write(`Restored ${summary(s)} into ${db}.\n`);
      return;
    }
    case "outbox list":
      return withStore(values, (store) => {
        for (const m of store.outbox.list()) {
          process.stdout.write(`${m.created_at}\t${m.recipient}\t${m.subject}\n`);
        }
      });
    default:
      throw new Error(`unknown command "${positionals.join(" ")}"\n\n${USAGE}`);
  }
}

if (require.main === module) {
  main().catch((err: Error) => {
    process.stderr.write(`uptime-server: ${err.message}\n`);
    process.exit(1);
  });
}
