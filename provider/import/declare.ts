import { type Channel, type Monitor, type StatusPage, toMonitorSpec } from "../../api";
import { channelKind } from "../kinds/channel";
import { mapKeys, type Props, same, toCamel } from "../kinds/values";
import { monitorKind } from "../kinds/monitor";
import { statusPageKind } from "../kinds/status-page";
import { assignNames } from "./names";
import { MASKED_CHANNEL_CONFIG } from "./secrets";

/** A TypeScript expression written as is (a variable reference, a config read). */
export class Code {
  constructor(readonly text: string) {}
}

/** A stack config secret the generated program reads, and what it holds. */
export interface SecretKey {
  key: string;
  describe: string;
}

/** One resource of the generated program. */
export interface Declaration {
  varName: string;
  className: "Monitor" | "Channel" | "StatusPage";
  id: string;
  label: string;
  args: Props;
}

/** The live objects an import reads. */
export interface Account {
  monitors: Monitor[];
  channels: Channel[];
  statusPages: StatusPage[];
}

/** The program's resources (channels, monitors, pages: each after what it references) and secrets. */
export interface ImportedProgram {
  declarations: Declaration[];
  secrets: SecretKey[];
}

const capital = (s: string) => (s ? `${s[0]?.toUpperCase()}${s.slice(1)}` : s);
const configKey = (s: string) => toCamel(s.toLowerCase().replace(/[^a-z0-9]+/g, "_")).replace(/_/g, "");

/** Builds the declarations: each object as it is live, in the provider's normal forms. */
export function declareAccount(account: Account): ImportedProgram {
  const names = assignNames([
    ...account.channels.map((c) => ({ id: c.id, name: c.name, createdAt: c.created_at, kind: "channel" })),
    ...account.monitors.map((m) => ({ id: m.id, name: m.name, createdAt: m.created_at, kind: "monitor" })),
    ...account.statusPages.map((p) => ({ id: p.id, name: p.title || p.slug, createdAt: p.created_at, kind: "page" })),
  ]);
  const secrets: SecretKey[] = [];
  const secret = (key: string, describe: string) => {
    secrets.push({ key, describe });
    return new Code(`config.requireSecret(${JSON.stringify(key)})`);
  };
  // References to objects left out (by a filter) stay literal ids.
  const ref = (id: string) => (names.has(id) ? new Code(`${names.get(id)}.id`) : id);
  const byCreation = <T extends { created_at: string; id: string }>(xs: T[]) =>
    [...xs].sort((a, b) =>
      a.created_at === b.created_at ? (a.id < b.id ? -1 : 1) : a.created_at < b.created_at ? -1 : 1,
    );
  const declarations: Declaration[] = [
    ...byCreation(account.channels).map((c) => declareChannel(c, names.get(c.id) as string, secret)),
    ...byCreation(account.monitors).map((m) => declareMonitor(m, names.get(m.id) as string, ref, secret)),
    ...byCreation(account.statusPages).map((p) => declarePage(p, names.get(p.id) as string, ref)),
  ];
  return { declarations, secrets };
}

type SecretFn = (key: string, describe: string) => Code;

function declareChannel(c: Channel, varName: string, secret: SecretFn): Declaration {
  const masked = MASKED_CHANNEL_CONFIG[c.type] ?? Object.keys(c.config);
  const config: Props = {};
  for (const [key, value] of Object.entries(c.config)) {
    const prop = toCamel(key);
    config[prop] = masked.includes(key)
      ? secret(`${varName}${capital(prop)}`, `${c.type} channel "${c.name}" (${c.id}): config.${prop}`)
      : value;
  }
  return {
    varName,
    className: "Channel",
    id: c.id,
    label: `${c.type} channel "${c.name}"`,
    args: { ...channelKind.refreshedInputs(c), config, adopt: c.id },
  };
}

function declareMonitor(m: Monitor, varName: string, ref: (id: string) => unknown, secret: SecretFn): Declaration {
  const live = monitorKind.refreshedInputs(m);
  // Fields equal to what the API would default to are left out: the program stays short.
  const defaults = mapKeys(
    toMonitorSpec({
      name: m.name,
      type: m.type,
      url: m.url,
      interval_sec: m.interval_sec,
    } as never) as unknown as Props,
    toCamel,
  );
  const args: Props = {};
  for (const [key, value] of Object.entries(live)) {
    if (value === undefined) continue;
    const required = ["name", "type", "url", "intervalSec"].includes(key);
    if (key === "paused" ? value === false : !required && key in defaults && same(value, defaults[key])) continue;
    args[key] = value;
  }
  if (m.channel_ids.length) args.channelIds = m.channel_ids.map(ref);
  const headerNames = Object.keys(m.headers);
  if (headerNames.length) {
    args.headers = Object.fromEntries(
      headerNames.map((h) => [
        h,
        secret(`${varName}Header${capital(configKey(h))}`, `monitor "${m.name}" (${m.id}): header ${h}`),
      ]),
    );
  }
  if (m.body !== null) args.body = secret(`${varName}Body`, `monitor "${m.name}" (${m.id}): request body`);
  const variables = Object.keys(m.variables ?? {});
  if (variables.length) {
    args.variables = Object.fromEntries(
      variables.map((v) => [
        v,
        secret(`${varName}Var${capital(configKey(v))}`, `monitor "${m.name}" (${m.id}): variable ${v}`),
      ]),
    );
  }
  return {
    varName,
    className: "Monitor",
    id: m.id,
    label: `${m.type} monitor "${m.name}"`,
    args: { ...args, adopt: m.id },
  };
}

function declarePage(p: StatusPage, varName: string, ref: (id: string) => unknown): Declaration {
  const { description, monitorIds, sections, ...rest } = statusPageKind.refreshedInputs(p);
  // The structure's defaults stay out, as a program would leave them out.
  const args: Props = { ...statusPageKind.fields.withoutDefaults(rest) };
  if (Array.isArray(sections) && sections.length) {
    args.sections = (sections as StatusPage["sections"]).map((s) => ({
      ...s,
      components: s.components.map((c) => ({ ...c, monitors: c.monitors.map(ref) })),
    }));
  }
  if (description !== null && description !== undefined) args.description = description;
  if ((monitorIds as string[]).length) args.monitorIds = (monitorIds as string[]).map(ref);
  return {
    varName,
    className: "StatusPage",
    id: p.id,
    label: `status page "${p.title}" (/${p.slug})`,
    args: { ...args, adopt: p.id },
  };
}
