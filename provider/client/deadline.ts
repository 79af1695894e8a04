/**
 * A resource operation's time limit (`customTimeouts`): every request, retry, backoff and
 * rate-limit wait the operation makes ends when it is spent, with an error that says which limit
 * it was. The limit travels with the async call chain (AsyncLocalStorage), so the client needs no
 * extra argument at every call site.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { UptimeApiError } from "./errors";

/** The running operation's limit. */
export interface Deadline {
  signal: AbortSignal;
  /** The limit in milliseconds, for messages. */
  ms: number;
  /** When it is spent (ms since the epoch): how long a request may wait for the rate limit. */
  endsAt: number;
  /** `customTimeouts.create`, … : which setting it was. */
  setting: string;
}

/** The internal input that carries a resource's `customTimeouts` (set by the resource classes). */
export const TIMEOUTS_INPUT = "__timeouts";

const current = new AsyncLocalStorage<Deadline>();

/**
 * Runs `fn` outside any operation's limit: for work shared by several operations (a batch of
 * their writes), which one operation's limit must not cut short for the others.
 */
export function outsideDeadline<T>(fn: () => T): T {
  return current.exit(fn);
}

/** The limit of the operation this call runs in, if it has one. */
export function currentDeadline(): Deadline | undefined {
  return current.getStore();
}

/** `5s`, `2m 30s`: a limit as a person reads it. */
function human(ms: number): string {
  const s = Math.round(ms / 100) / 10;
  return s < 120 ? `${s}s` : `${Math.floor(s / 60)}m ${Math.round(s % 60)}s`;
}

/** The error of an operation that ran out of time while doing `what`. */
export function timedOut(deadline: Deadline, what: string, attempts = 1): UptimeApiError {
  return new UptimeApiError(
    "timeout",
    0,
    `gave up after ${human(deadline.ms)} (${deadline.setting}) while ${what}`,
    [],
    undefined,
    attempts,
  );
}

/**
 * Runs `fn` with a limit of `ms` (none when `ms` is undefined, 0 or an outer limit already runs:
 * the engine's own deadline wins).
 */
export function withDeadline<T>(ms: number | undefined, setting: string, fn: () => Promise<T>): Promise<T> {
  if (!ms || ms <= 0 || current.getStore()) return fn();
  return current.run({ signal: AbortSignal.timeout(ms), ms, endsAt: Date.now() + ms, setting }, fn);
}

/** Waits `ms`, or throws the deadline's error as soon as it is spent. */
export async function waitWithin(ms: number, what: string): Promise<void> {
  const deadline = current.getStore();
  if (!deadline) return void (await sleep(ms));
  if (deadline.signal.aborted) throw timedOut(deadline, what);
  try {
    await sleep(ms, undefined, { signal: deadline.signal });
  } catch {
    throw timedOut(deadline, what);
  }
}

/**
 * The promise, or the deadline's error once it is spent. `onLate` receives the promise's value
 * if it settles after the limit (to release what it holds).
 */
export function within<T>(promise: Promise<T>, what: string, onLate?: (value: T) => void): Promise<T> {
  const deadline = current.getStore();
  if (!deadline) return promise;
  const { signal } = deadline;
  if (signal.aborted) {
    void promise.then(onLate, () => undefined);
    return Promise.reject(timedOut(deadline, what));
  }
  return new Promise<T>((resolve, reject) => {
    const abort = () => {
      void promise.then(onLate, () => undefined);
      reject(timedOut(deadline, what));
    };
    signal.addEventListener("abort", abort, { once: true });
    promise.then(
      (v) => (signal.removeEventListener("abort", abort), resolve(v)),
      (e: unknown) => (signal.removeEventListener("abort", abort), reject(e as Error)),
    );
  });
}

/** Go-style durations as Pulumi's `customTimeouts` take them (`30s`, `5m`, `1h30m`), in ms. */
export async function parseTimeout(text: unknown): Promise<number | undefined> {
  if (typeof text !== "string" || text.trim() === "") return undefined;
  const { default: parse } = await import("parse-duration");
  const ms = parse(text);
  return typeof ms === "number" && Number.isFinite(ms) && ms > 0 ? ms : undefined;
}
