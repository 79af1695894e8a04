import { mkdirSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import type { Channel, Monitor, StatusPage } from "../../api";
import { UptimeClient } from "../client/client";
import type { Connection } from "../client/connection";
import { type Account, declareAccount, type ImportedProgram } from "./declare";
import { packageJson, pulumiYaml, tsconfigJson } from "./files";
import { renderIndex, renderReadme } from "./render";

/** Options of `pulumi-uptime import`. */
export interface ImportOptions {
  connection: Connection;
  /** Folder to write the project into (created when missing). */
  outDir: string;
  /** `tag:NAME`: only monitors with that tag, and the channels and pages that go with them. */
  filter?: string;
}

/** Reads every monitor, channel and status page of the account. */
export async function readAccount(client: UptimeClient): Promise<Account> {
  const [monitors, channels, statusPages] = await Promise.all([
    client.listAll<Monitor>("/api/v1/monitors"),
    client.listAll<Channel>("/api/v1/channels"),
    client.listAll<StatusPage>("/api/v1/status-pages"),
  ]);
  return { monitors, channels, statusPages };
}

/**
 * Narrows the account to monitors tagged NAME, the channels they notify and the pages that show
 * at least one of them. References to objects left out stay literal ids in the program.
 */
export function filterAccount(account: Account, filter: string | undefined): Account {
  if (!filter) return account;
  const m = /^tag:(.+)$/.exec(filter);
  if (!m?.[1]) throw new Error(`--filter must be tag:NAME, got "${filter}"`);
  const tag = m[1].toLowerCase();
  const monitors = account.monitors.filter((x) => x.tags.includes(tag));
  const ids = new Set(monitors.map((x) => x.id));
  const channelIds = new Set(monitors.flatMap((x) => x.channel_ids));
  return {
    monitors,
    channels: account.channels.filter((c) => channelIds.has(c.id)),
    statusPages: account.statusPages.filter((p) => p.monitor_ids.some((id) => ids.has(id))),
  };
}

/** Project names allow letters, digits, `-`, `_` and `.`. */
const projectName = (dir: string) =>
  basename(resolve(dir))
    .replace(/[^A-Za-z0-9_.-]+/g, "-")
    .replace(/^[-.]+/, "") || "uptime-imported";

/** Writes the Pulumi project; returns what it declared. */
export async function importAccount(options: ImportOptions): Promise<ImportedProgram> {
  const client = new UptimeClient(options.connection);
  const account = filterAccount(await readAccount(client), options.filter);
  const program = declareAccount(account);
  const header = `Imported from ${options.connection.baseUrl}${options.filter ? ` (${options.filter})` : ""} by \`pulumi-uptime import\``;
  const name = projectName(options.outDir);
  mkdirSync(options.outDir, { recursive: true });
  const files: Record<string, string> = {
    "Pulumi.yaml": pulumiYaml(name),
    "package.json": packageJson(name),
    "tsconfig.json": tsconfigJson,
    "index.ts": renderIndex(program, header),
    "README.md": renderReadme(program, options.connection.baseUrl, header),
  };
  for (const [file, text] of Object.entries(files)) writeFileSync(join(options.outDir, file), text);
  return program;
}
