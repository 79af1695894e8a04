import type { CreateMonitor, Monitor, UpdateMonitor } from "../../api";
import type { SecretBox } from "../secrets";
import type { Principal } from "../store/keys";
import type { MonitorListQuery, MonitorService } from "./monitors";
import type { ListPage } from "./paging";

/** What a fingerprint starts with: a client tells it from a value an older server returned in plain text. */
export const FINGERPRINT_PREFIX = "hmac-sha256:";

/**
 * The fingerprint a read shows in place of a secret variable: HMAC-SHA256 under a key derived from
 * the server's secret key file, of the monitor id, the variable's name and its value. It changes
 * when the value changes, differs between monitors, and cannot be used to test guesses offline.
 */
export function variableFingerprint(secrets: SecretBox, monitorId: string, name: string, value: string): string {
  return `${FINGERPRINT_PREFIX}${secrets.mac(`monitor-variable\0${monitorId}\0${name}\0${value}`)}`;
}

/** The monitor as every API read shows it: each `variables` value (multistep, browser) as its fingerprint. */
export function shownMonitor(secrets: SecretBox, m: Monitor): Monitor {
  const variables = m.variables as Record<string, string> | undefined;
  if (!variables || Object.keys(variables).length === 0) return m;
  return { ...m, variables: Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, variableFingerprint(secrets, m.id, name, value)])) };
}

/**
 * The monitors' API: the service's answers with secret fields write-only (`shownMonitor`). Checks,
 * dry runs and the trigger use the service itself, which holds the values.
 */
export class MonitorReads {
  constructor(
    private readonly monitors: MonitorService,
    private readonly secrets: SecretBox,
  ) {}

  private shown = (m: Monitor) => shownMonitor(this.secrets, m);

  async list(principal: Principal, query: MonitorListQuery): Promise<ListPage<Monitor>> {
    const page = await this.monitors.list(principal, query);
    return { ...page, data: page.data.map(this.shown) };
  }

  async get(principal: Principal, id: string): Promise<Monitor> {
    return this.shown(await this.monitors.get(principal, id));
  }

  async create(principal: Principal, body: CreateMonitor): Promise<Monitor> {
    return this.shown(await this.monitors.create(principal, body));
  }

  /** A variable written back as a read showed it (its fingerprint) keeps the value it stands for. */
  async update(principal: Principal, id: string, body: UpdateMonitor): Promise<Monitor> {
    const written = (body as { variables?: Record<string, string> }).variables;
    if (written && Object.values(written).some((v) => v.startsWith(FINGERPRINT_PREFIX))) {
      const held = ((await this.monitors.get(principal, id)).variables ?? {}) as Record<string, string>;
      const variables = Object.fromEntries(Object.entries(written).map(([name, value]) => {
        const current = held[name];
        return [name, current !== undefined && value === variableFingerprint(this.secrets, id, name, current) ? current : value];
      }));
      body = { ...body, variables } as UpdateMonitor;
    }
    return this.shown(await this.monitors.update(principal, id, body));
  }

  async delete(principal: Principal, id: string): Promise<Monitor> {
    return this.shown(await this.monitors.delete(principal, id));
  }

  async setStatus(principal: Principal, id: string, status: Monitor["status"]): Promise<Monitor> {
    return this.shown(await this.monitors.setStatus(principal, id, status));
  }
}
