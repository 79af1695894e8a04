import { type CreateMonitor, isSecretHeader, type Monitor, type UpdateMonitor } from "../../api";
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
  return `${FINGERPRINT_PREFIX}${secrets.fingerprint(`monitor-variable\0${monitorId}\0${name}\0${value}`)}`;
}

/**
 * The fingerprint a read shows in place of a secret header's value (`isSecretHeader`): as a
 * variable's, of the monitor id, the header's lower-cased name and its value. A step's header and
 * the monitor's with the same name and value read alike, so reordered steps keep theirs.
 */
export function headerFingerprint(secrets: SecretBox, monitorId: string, name: string, value: string): string {
  return `${FINGERPRINT_PREFIX}${secrets.fingerprint(`monitor-header\0${monitorId}\0${name.toLowerCase()}\0${value}`)}`;
}

type Strings = Record<string, string>;

/** Headers as reads show them: each secret one's value as its fingerprint. */
function shownHeaders(secrets: SecretBox, id: string, headers: Strings): Strings {
  return Object.fromEntries(
    Object.entries(headers).map(([name, value]) => [
      name,
      isSecretHeader(name) ? headerFingerprint(secrets, id, name, value) : value,
    ]),
  );
}

/** Whether any of `headers` is secret (shown as its fingerprint). */
const anySecret = (headers: Strings | undefined): boolean =>
  headers !== undefined && Object.keys(headers).some(isSecretHeader);

/**
 * The monitor as every API read shows it: each `variables` value (multistep, browser) and each
 * secret header's value (`headers`, every step's `headers`) as its fingerprint. A monitor with
 * nothing secret is shown as it is (the same object: a kept read stays the same object, which
 * lets its answer's JSON be kept with it).
 */
export function shownMonitor(secrets: SecretBox, m: Monitor): Monitor {
  const variables = m.variables as Strings | undefined;
  const steps = m.steps as { headers?: Strings }[] | undefined;
  const hasVariables = variables !== undefined && Object.keys(variables).length > 0;
  if (!hasVariables && !anySecret(m.headers) && !steps?.some((step) => anySecret(step.headers))) return m;
  const shown: Record<string, unknown> = { ...m };
  if (hasVariables) {
    shown.variables = Object.fromEntries(
      Object.entries(variables).map(([name, value]) => [name, variableFingerprint(secrets, m.id, name, value)]),
    );
  }
  if (m.headers) shown.headers = shownHeaders(secrets, m.id, m.headers);
  if (steps)
    shown.steps = steps.map((step) =>
      step.headers ? { ...step, headers: shownHeaders(secrets, m.id, step.headers) } : step,
    );
  return shown as Monitor;
}

/**
 * Headers as written, a fingerprint a read showed replaced by the value it stands for: a held
 * header (the monitor's or any step's) of the same name whose fingerprint it is.
 */
function writtenHeaders(secrets: SecretBox, id: string, written: Strings, held: readonly Strings[]): Strings {
  return Object.fromEntries(
    Object.entries(written).map(([name, value]) => {
      if (!value.startsWith(FINGERPRINT_PREFIX)) return [name, value];
      const lower = name.toLowerCase();
      const match = held
        .flatMap((h) => Object.entries(h))
        .find(([n, v]) => n.toLowerCase() === lower && headerFingerprint(secrets, id, lower, v) === value);
      return [name, match ? match[1] : value];
    }),
  );
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

  /** A variable or a secret header written back as a read showed it (its fingerprint) keeps the value it stands for. */
  async update(principal: Principal, id: string, body: UpdateMonitor): Promise<Monitor> {
    const written = body as { variables?: Strings; headers?: Strings; steps?: { headers?: Strings }[] };
    const fingerprints = [written.variables, written.headers, ...(written.steps ?? []).map((s) => s?.headers)].some(
      (h) =>
        h &&
        typeof h === "object" &&
        Object.values(h).some((v) => typeof v === "string" && v.startsWith(FINGERPRINT_PREFIX)),
    );
    if (fingerprints) {
      const current = await this.monitors.get(principal, id);
      const next: Record<string, unknown> = { ...body };
      if (written.variables) {
        const held = (current.variables ?? {}) as Strings;
        next.variables = Object.fromEntries(
          Object.entries(written.variables).map(([name, value]) => {
            const value0 = held[name];
            return [
              name,
              value0 !== undefined && value === variableFingerprint(this.secrets, id, name, value0) ? value0 : value,
            ];
          }),
        );
      }
      const heldHeaders = [
        current.headers ?? {},
        ...((current.steps ?? []) as { headers?: Strings }[]).map((s) => s.headers ?? {}),
      ];
      if (written.headers) next.headers = writtenHeaders(this.secrets, id, written.headers, heldHeaders);
      if (Array.isArray(written.steps)) {
        next.steps = written.steps.map((step) =>
          step?.headers && typeof step.headers === "object"
            ? { ...step, headers: writtenHeaders(this.secrets, id, step.headers, heldHeaders) }
            : step,
        );
      }
      body = next as UpdateMonitor;
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
