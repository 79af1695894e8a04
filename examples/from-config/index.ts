import { readFileSync } from "node:fs";
import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";
import { parse } from "yaml";

type Entry = Omit<uptime.MonitorArgs, "connection"> & { id: string };

const config = new pulumi.Config();
const file = config.require("monitorsFile");
const doc = parse(readFileSync(file, "utf8")) as { defaults?: Partial<Entry>; monitors?: Entry[] };

const seen = new Set<string>();
const monitors: Record<string, pulumi.Output<string>> = {};
for (const entry of doc.monitors ?? []) {
  if (!entry.id) throw new Error(`${file}: every monitor needs an id`);
  if (seen.has(entry.id)) throw new Error(`${file}: monitor id "${entry.id}" is used twice`);
  seen.add(entry.id);
  const { id, ...args } = { ...doc.defaults, ...entry };
  monitors[id] = new uptime.Monitor(id, args as uptime.MonitorArgs).id;
}

export const monitorIds = monitors;
