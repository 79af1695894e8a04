import type * as pulumi from "@pulumi/pulumi";
import { unknownValue } from "@pulumi/pulumi/runtime/rpc";
import type { UptimeClient } from "../client";
import type { Connection } from "../connection";
import type { Fields } from "./fields";

/** Pulumi's marker for a value not known until apply (preview with computed inputs). */
export const UNKNOWN = unknownValue;

export type Props = Record<string, unknown>;

/** A check failure in Pulumi's shape: the input property and the rule it broke. */
export type Failure = pulumi.dynamic.CheckFailure;

/**
 * What the generic runtime needs to know about one kind of API object. Comparable fields
 * (`desired`/`actual`) are keyed by API name and hold values in the API's normal form, so a
 * second `pulumi up` compares equal values and reports no change; `propertyOf` names the input
 * property each one comes from.
 */
export interface Kind<Api extends { id: string }> {
  /** "monitor", "channel", "status page": used in messages. */
  label: string;
  /** Collection path, e.g. `/api/v1/monitors`. */
  path: string;
  /** Whether GET/PATCH/DELETE by id are the server's extensions (channels, status pages). */
  byIdIsExtension: boolean;
  /** The kind's field table, as the provider reads it. */
  fields: Fields;
  /** Input properties whose change replaces the object. */
  replaceOnChange: readonly string[];
  /** Failures of the known inputs; `complete` is false when some inputs are unknown. */
  validate(inputs: Props, complete: boolean): Failure[];
  /** The comparable fields the inputs ask for (`id` known after create). */
  desired(inputs: Props, id: string | undefined): Props;
  /** The comparable fields of the state (outputs). */
  actual(outputs: Props): Props;
  /** The input property a comparable field comes from (for unknowns and detailed diffs). */
  propertyOf(field: string): string;
  createBody(inputs: Props): object;
  patchBody(inputs: Props, changed: readonly string[], id: string): object;
  /**
   * Outputs to store: the live object, camelCase, with what the inputs add. `previous` is given
   * when the state had outputs before (read, update): `rewrote` names the input properties this
   * call just wrote; what the provider recorded about the others carries over.
   */
  outputs(api: Api, inputs: Props, connection: Connection, previous?: Previous): Props;
  /** Inputs after a refresh: what the live object would be declared as, secrets left out. */
  refreshedInputs(api: Api): Props;
  /** Extra calls after a write (a monitor's pause/resume). */
  afterWrite?(client: UptimeClient, api: Api, inputs: Props): Promise<Api>;
  /** Extra calls after a create or an adoption only (a heartbeat monitor's push URL). */
  afterCreate?(client: UptimeClient, api: Api, inputs: Props): Promise<Api>;
}

/** The outputs before a read or update, and the input properties it wrote to the service. */
export interface Previous {
  props: Props;
  rewrote: readonly string[];
}

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
