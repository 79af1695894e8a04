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
  value === UNKNOWN || (Array.isArray(value) && value.some(isUnknown)) ||
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
    return Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)).map(([k, x]) => [k, canonical(x)]));
  }
  return v === undefined ? null : v;
}
