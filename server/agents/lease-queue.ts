import { nextDue } from "../checker/cadence";

/** The part of tinyqueue's binary heap used here (an ES module, loaded by the lease service). */
export interface Heap<T> {
  peek(): T | undefined;
  pop(): T | undefined;
  push(item: T): void;
}

/** One check handed to an agent: `<monitor>/<location>/<due ms>` names it, whoever runs it. */
export interface Lease {
  checkKey: string;
  monitorId: string;
  due: number;
  agentId: string;
  expires: number;
}

interface Entry {
  monitorId: string;
  due: number;
}

/** tinyqueue's class. */
export type HeapClass = new <T>(items: T[], compare: (a: T, b: T) => number) => Heap<T>;

/** The check of a monitor at a location due at `due`: the same key whichever agent runs it. */
export const checkKey = (monitorId: string, location: string, due: number) => `${monitorId}/${location}/${due}`;

/** `<monitor>/<location>/<due ms>` back into its parts; undefined for anything else. */
export function parseCheckKey(key: string): { monitorId: string; location: string; due: number } | undefined {
  const m = /^(mon_[A-Za-z0-9_-]+)\/([a-z0-9][a-z0-9_-]{0,62})\/(\d{1,15})$/.exec(key);
  return m ? { monitorId: m[1] as string, location: m[2] as string, due: Number(m[3]) } : undefined;
}

/**
 * The schedule of one location of one account, shared by its agents: each monitor due every
 * `interval`, on a fixed cadence; due checks are leased to whichever agent asks first. A lease not
 * answered by its expiry goes back to the front, for the next agent that asks (the same check
 * key: a late answer from the first agent and one from the second are recorded once).
 */
export class LeaseQueue {
  private readonly heap: Heap<Entry>;
  /** monitor → interval and the due time of its one valid heap entry (older entries are skipped). */
  private readonly members = new Map<string, { intervalMs: number; next: number }>();
  /** Outstanding leases, in the order they were given (so by expiry: every lease lasts as long). */
  private readonly leases = new Map<string, Lease>();
  /** Expired leases waiting for another agent. */
  private readonly retry: Lease[] = [];
  /** Leases that expired unanswered (handed to another agent). */
  expired = 0;

  constructor(
    Queue: HeapClass,
    readonly location: string,
  ) {
    this.heap = new Queue<Entry>([], (a, b) => a.due - b.due);
  }

  get size(): number {
    return this.members.size;
  }

  has(monitorId: string): boolean {
    return this.members.has(monitorId);
  }

  /** Adds a monitor (first due at `first`), or changes its interval (keeping its phase when unchanged). */
  set(monitorId: string, intervalMs: number, first: number): void {
    const current = this.members.get(monitorId);
    if (current?.intervalMs === intervalMs) return;
    this.members.set(monitorId, { intervalMs, next: first });
    this.heap.push({ monitorId, due: first });
  }

  /** Removes a monitor: its queued checks are dropped; a result of an outstanding lease is judged when it comes. */
  delete(monitorId: string): void {
    this.members.delete(monitorId);
  }

  /** Up to `max` due checks for `agentId`: expired leases first, then by due time. */
  take(agentId: string, max: number, now: number, leaseMs: number): Lease[] {
    this.reclaim(now);
    const out: Lease[] = [];
    while (out.length < max && this.retry.length > 0) {
      const lease = this.retry.shift() as Lease;
      if (this.members.has(lease.monitorId)) out.push(this.give(lease.monitorId, lease.due, agentId, now + leaseMs));
    }
    while (out.length < max) {
      const top = this.heap.peek();
      if (!top || top.due > now) break;
      this.heap.pop();
      const member = this.members.get(top.monitorId);
      if (!member || member.next !== top.due) continue;
      // Checks missed while no agent asked are skipped, not run in a burst.
      const next = nextDue(top.due, member.intervalMs, now);
      member.next = next;
      this.heap.push({ monitorId: top.monitorId, due: next });
      out.push(this.give(top.monitorId, top.due, agentId, now + leaseMs));
    }
    return out;
  }

  /** When the next check is due (or an expired lease waits), for a waiting agent; undefined when none. */
  nextDue(): number | undefined {
    if (this.retry.length > 0) return 0;
    const soonestLease = this.leases.values().next().value?.expires;
    const top = this.heap.peek()?.due;
    return top === undefined ? soonestLease : soonestLease === undefined ? top : Math.min(top, soonestLease);
  }

  /** The lease of `key` is answered: it is no longer outstanding. */
  complete(key: string): Lease | undefined {
    const lease = this.leases.get(key);
    this.leases.delete(key);
    const i = this.retry.findIndex((l) => l.checkKey === key);
    if (i >= 0) this.retry.splice(i, 1);
    return lease;
  }

  /** The check keys `agentId` holds unexpired leases on. */
  heldBy(agentId: string): string[] {
    return [...this.leases.values()].filter((l) => l.agentId === agentId).map((l) => l.checkKey);
  }

  /** Leases outstanding now. */
  outstanding(): number {
    return this.leases.size + this.retry.length;
  }

  private give(monitorId: string, due: number, agentId: string, expires: number): Lease {
    const lease = { checkKey: checkKey(monitorId, this.location, due), monitorId, due, agentId, expires };
    this.leases.delete(lease.checkKey);
    this.leases.set(lease.checkKey, lease);
    return lease;
  }

  private reclaim(now: number): void {
    for (const lease of this.leases.values()) {
      if (lease.expires > now) break;
      this.leases.delete(lease.checkKey);
      this.expired++;
      this.retry.push(lease);
    }
  }
}
