import { type Location, type LocationPolicy, locationsOf } from "../../api";
import { browserCapability } from "../checker/browser/run";
import type { Store } from "../store";
import type { AgentRow } from "../store/agents";
import type { Principal } from "../store/keys";
import type { HealthPolicy } from "../store/streaks";

/** Writes of an agent's last contact to the database, at most this often (every poll updates memory). */
const TOUCH_WRITE_MS = 5_000;

/**
 * What a location's policies are judged from: a moment, the agents heard from by then and, when
 * read already, the account's stored agents (else they are read when needed).
 */
export interface AgentsView {
  now: number;
  seen: readonly Seen[];
  rows?: readonly AgentRow[];
}

/** An agent's last contact as this process heard it. */
export interface Seen {
  accountId: string;
  location: string;
  at: number;
  /** When the contact was last written to the database. */
  written: number;
  allowPrivate?: boolean;
  browser?: boolean;
}

/**
 * The checker locations of each account: the built-in checker's (named by `--location`) and
 * those of the account's agent keys. A location is live while the built-in checker runs it or an
 * agent of it was in contact within `liveMs`; a location that is not live never counts as down.
 */
export class Locations {
  /** agent id → last contact (ms) and the last time it was written to the database. */
  private readonly seen = new Map<string, Seen>();

  constructor(
    private readonly store: Store,
    /** The built-in checker's location. */
    readonly builtin: string,
    /** Whether the built-in checker runs (off: agents of `builtin` may serve it). */
    readonly builtinRuns: boolean,
    /** How long after its last contact an agent still serves its location. */
    readonly liveMs: number,
    /** The built-in checker's outbound policy (`--allow-private-targets`). */
    readonly builtinAllowsPrivate = false,
  ) {}

  /** Locations a monitor of the account may name: the built-in one and its agent keys'. */
  async known(accountId: string): Promise<string[]> {
    return [...new Set([this.builtin, ...(await this.store.keys.agentLocations(accountId))])].sort();
  }

  /** Notes an agent's contact (a lease request or a result), with its outbound policy when it told. */
  async touch(
    agentId: string,
    principal: Principal,
    now = Date.now(),
    allowPrivate?: boolean,
    browser?: boolean,
  ): Promise<void> {
    const location = principal.location as string;
    const prev = this.seen.get(agentId);
    const policy = allowPrivate ?? prev?.allowPrivate;
    const canBrowse = browser ?? prev?.browser;
    const unchanged = prev && prev.location === location && prev.allowPrivate === policy && prev.browser === canBrowse;
    const written = unchanged && now - prev.written < TOUCH_WRITE_MS ? prev.written : now;
    if (written === now)
      await this.store.agents.touch(agentId, principal.accountId, principal.keyId, location, now, policy, canBrowse);
    this.seen.set(agentId, {
      accountId: principal.accountId,
      location,
      at: now,
      written,
      allowPrivate: policy,
      browser: canBrowse,
    });
  }

  /**
   * Whether the checkers of `location` may reach private addresses: the built-in checker's policy
   * for its location, and that of every live agent of the location (any of them may take a check);
   * with none live, the one heard from last. Undefined while no agent of it has told: its agents
   * then apply their own policy when they probe.
   */
  async allowsPrivate(
    accountId: string,
    location: string,
    view: AgentsView = this.view(),
  ): Promise<boolean | undefined> {
    // The built-in location is judged by the server's policy even while its checker is off: it may be turned on.
    const policies: boolean[] = location === this.builtin ? [this.builtinAllowsPrivate] : [];
    const live = this.liveAt(accountId, location, view);
    if (live.length > 0) {
      for (const a of live) if (a.allowPrivate !== undefined) policies.push(a.allowPrivate);
    } else {
      const last = (await this.stored(accountId, view)).find(
        (a) => a.location === location && a.allow_private_targets !== null,
      );
      if (last) policies.push(last.allow_private_targets === 1);
    }
    return policies.length === 0 ? undefined : policies.every(Boolean);
  }

  /**
   * Whether `location` can run browser monitors: the server's machine for the built-in checker
   * while it runs; else whether any of its agents (live ones, or the one heard from last) said so.
   * Undefined while none has told.
   */
  async runsBrowser(accountId: string, location: string, view: AgentsView = this.view()): Promise<boolean | undefined> {
    if (location === this.builtin && this.builtinRuns && browserCapability().ok) return true;
    const live = this.liveAt(accountId, location, view).filter((a) => a.browser !== undefined);
    if (live.length > 0) return live.some((a) => a.browser);
    const last = (await this.stored(accountId, view)).find(
      (a) => a.location === location && a.browser !== null && a.browser !== undefined,
    );
    if (last) return last.browser === 1;
    return location === this.builtin && this.builtinRuns ? false : undefined;
  }

  /** The agents heard from now, as a location's policies are judged from them. */
  private view(now = Date.now()): AgentsView {
    return { now, seen: [...this.seen.values()] };
  }

  /** The agents of the view live at `location`. */
  private liveAt(accountId: string, location: string, view: AgentsView): Seen[] {
    return view.seen.filter(
      (a) => a.accountId === accountId && a.location === location && view.now - a.at < this.liveMs,
    );
  }

  /** The account's stored agents: the view's, else read now. */
  private async stored(accountId: string, view: AgentsView): Promise<readonly AgentRow[]> {
    return view.rows ?? (await this.store.agents.list(accountId));
  }

  /** The outbound policies of `names` (locations of the account), as the target rules take them. */
  policies(accountId: string, names: readonly string[], now = Date.now()): Promise<LocationPolicy[]> {
    return Promise.all(
      names.map(async (name) => ({
        name,
        builtin: name === this.builtin,
        allow_private_targets: (await this.allowsPrivate(accountId, name, this.view(now))) ?? null,
      })),
    );
  }

  /** Locations of the account a live checker serves now. */
  live(accountId: string, now = Date.now()): Set<string> {
    const out = new Set<string>(this.builtinRuns ? [this.builtin] : []);
    for (const a of this.seen.values()) if (a.accountId === accountId && now - a.at < this.liveMs) out.add(a.location);
    return out;
  }

  /** The part of a check's health policy that locations decide. */
  policy(
    monitor: { account_id: string; locations: string[] | null; failure_threshold: number },
    location: string,
  ): Partial<HealthPolicy> {
    return {
      location,
      locations: locationsOf(monitor, this.builtin),
      failureThreshold: monitor.failure_threshold,
      live: this.live(monitor.account_id),
    };
  }

  /** The monitor's locations no live checker serves now (`live`: the account's live locations, when known). */
  unchecked(
    accountId: string,
    monitor: { locations: string[] | null },
    live: ReadonlySet<string> = this.live(accountId),
  ): string[] {
    return locationsOf(monitor, this.builtin).filter((l) => !live.has(l));
  }

  /** `GET /api/v1/locations`: every location of the account, with its agents' last contact. */
  async list(accountId: string, now = Date.now()): Promise<Location[]> {
    const rows = await this.store.agents.list(accountId);
    // One snapshot judges and lists: the rows, plus the agents this process heard from since they
    // were read; the policies fall back on these rows, never on a later read. So the answer never
    // says a location runs browser checks without the agent that said so.
    const listed = new Set(rows.map((a) => a.id));
    const agents: AgentRow[] = [...rows];
    const seen = [...this.seen.values()];
    for (const [id, a] of this.seen)
      if (a.accountId === accountId && !listed.has(id))
        agents.push({
          id,
          account_id: accountId,
          key_id: "",
          location: a.location,
          first_seen_at: a.at,
          last_seen_at: a.at,
          allow_private_targets: a.allowPrivate === undefined ? null : Number(a.allowPrivate),
          browser: a.browser === undefined ? null : Number(a.browser),
        });
    const live = this.live(accountId, now);
    const view: AgentsView = { now, seen, rows: agents };
    return Promise.all(
      (await this.known(accountId)).map(async (name) => {
        const own = agents
          .filter((a) => a.location === name)
          .map((a) => {
            const at = Math.max(a.last_seen_at, this.seen.get(a.id)?.at ?? 0);
            const said =
              this.seen.get(a.id)?.allowPrivate ??
              (a.allow_private_targets === null ? undefined : a.allow_private_targets === 1);
            const browser =
              this.seen.get(a.id)?.browser ??
              (a.browser === null || a.browser === undefined ? undefined : a.browser === 1);
            return {
              id: a.id,
              first_seen_at: iso(a.first_seen_at),
              last_contact_at: iso(at),
              live: now - at < this.liveMs,
              allow_private_targets: said ?? null,
              browser: browser ?? null,
            };
          });
        const builtin = name === this.builtin && this.builtinRuns;
        return {
          name,
          builtin,
          default: name === this.builtin,
          live: live.has(name),
          allow_private_targets: (await this.allowsPrivate(accountId, name, view)) ?? null,
          browser: (await this.runsBrowser(accountId, name, view)) ?? null,
          agents: own,
        };
      }),
    );
  }
}

const iso = (ms: number) => new Date(ms).toISOString();
