import type * as pulumi from "@pulumi/pulumi";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";

/**
 * Property values as the provider handles them: plain JSON, Pulumi's unknown marker, the
 * comparison in normal form, and the case conversions between input properties and API fields.
 */

/** Pulumi's marker for a value not known until apply (preview with computed inputs). */
export const UNKNOWN = unknownValue;

export type Props = Record<string, unknown>;

/** A check failure in Pulumi's shape: the input property and the rule it broke. */
export type Failure = pulumi.dynamic.CheckFailure;

export const isUnknown = (value: unknown): boolean =>
  value === UNKNOWN ||
  (Array.isArray(value) && value.some(isUnknown)) ||
  (typeof value === "object" && value !== null && !Array.isArray(value) && Object.values(value).some(isUnknown));

/** `interval_sec` → `intervalSec`. */
export const toCamel = (s: string): string => s.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
/** `intervalSec` → `interval_sec`. */
export const toSnake = (s: string): string => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Renames the top-level keys (never nested ones: header names stay as written). */
export function mapKeys(obj: Props, rename: (k: string) => string): Props {
  const out: Props = {};
  for (const [k, v] of Object.entries(obj)) {
    if (v === undefined) continue;
    out[rename(k)] = v;
  }
  return out;
}

/** Deep equality of JSON values. */
export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));
}

function canonical(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(canonical);
  if (v && typeof v === "object") {
    return Object.fromEntries(
      Object.entries(v)
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, x]) => [k, canonical(x)]),
    );
  }
  return v === undefined ? null : v;
}

/** What is removed from a value that is not known yet: whole values and array elements go. */
const GONE = Symbol("not known yet");

/**
 * The known part of inputs at preview: every unknown removed, at any depth (a whole value, an
 * array element, a map value), and what validating that part may report. A value not known yet
 * is never judged: failures on a place that lost something (a list's length, a required key)
 * are dropped, and failures on the elements that remain name their index in the inputs.
 */
export class KnownInputs {
  /** The inputs without their unknowns. */
  readonly props: Props;
  /** Paths (`channelIds`, `config.url`) of the values removed and of the containers that lost one. */
  private readonly holes = new Set<string>();
  /** Per array that lost elements: the inputs' index of each element that remains. */
  private readonly moved = new Map<string, number[]>();

  constructor(inputs: Props) {
    this.props = this.strip(inputs, "") as Props;
  }

  /** Whether every input is known (rules across fields can be checked). */
  get complete(): boolean {
    return this.holes.size === 0;
  }

  /** The failures that concern known values, their paths in terms of the inputs as given. */
  judge(failures: readonly Failure[]): Failure[] {
    const out: Failure[] = [];
    for (const f of failures) {
      const property = this.original(f.property);
      if (this.holes.has(property)) continue;
      // A required key of an object that lost it (`retry.strategy` not known yet) is not missing.
      if (this.holes.has(parentOf(property)) && valueAt(this.props, f.property) === undefined) continue;
      const reason = f.reason.startsWith(f.property) ? property + f.reason.slice(f.property.length) : f.reason;
      out.push({ property, reason });
    }
    return out;
  }

  private strip(value: unknown, path: string): unknown {
    if (value === UNKNOWN) {
      this.holes.add(path);
      return GONE;
    }
    if (Array.isArray(value)) {
      const kept: unknown[] = [];
      const from: number[] = [];
      value.forEach((v, i) => {
        const known = this.strip(v, `${path}[${i}]`);
        if (known === GONE) return;
        kept.push(known);
        from.push(i);
      });
      if (kept.length !== value.length) {
        this.holes.add(path);
        this.moved.set(path, from);
      }
      return kept;
    }
    if (value !== null && typeof value === "object") {
      const out: Props = {};
      for (const [k, v] of Object.entries(value)) {
        const known = this.strip(v, path ? `${path}.${k}` : k);
        if (known === GONE) this.holes.add(path);
        else out[k] = known;
      }
      return out;
    }
    return value;
  }

  /** `channelIds[0]` of the known part → `channelIds[2]` of the inputs, when elements before it were unknown. */
  private original(path: string): string {
    let out = path;
    // Outer arrays first: an inner array's path is recorded with the outer array's input index.
    for (const [array, from] of [...this.moved].reverse()) {
      if (!out.startsWith(`${array}[`)) continue;
      const end = out.indexOf("]", array.length);
      const index = Number(out.slice(array.length + 1, end));
      out = `${array}[${from[index] ?? index}]${out.slice(end + 1)}`;
    }
    return out;
  }
}

/** The path of the object or list that holds `path`: `retry` of `retry.strategy`, `steps[1]` of `steps[1].url`. */
function parentOf(path: string): string {
  const m = /^(.*)(\.[^.[\]]+|\[\d+\])$/.exec(path);
  return m ? (m[1] as string) : "";
}

/** The value at `path` (`steps[1].url`) in `props`; undefined when there is none. */
function valueAt(props: Props, path: string): unknown {
  let at: unknown = props;
  for (const key of path.match(/[^.[\]]+/g) ?? []) {
    if (at === null || typeof at !== "object") return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}
