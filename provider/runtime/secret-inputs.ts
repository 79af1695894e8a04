/**
 * Secret inputs across refresh and import. A refresh records the inputs a later diff compares the
 * program with; leaving a secret out (a monitor's headers, a channel's config) would make an
 * `ignoreChanges` on it, or a program that did not touch it, write an empty value. So a read
 * carries them forward, as secrets. An import has no declaration to carry: the secret is kept out
 * of the inputs (generated code must not hold it in plaintext) and recorded as undeclared, so
 * that the program's first preview fails, naming it, until the program declares it.
 */
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { normalize } from "../../api";
import type { Kind } from "../kinds/kind";
import { type Failure, type Props, same } from "../kinds/values";

/**
 * The input key that records the secrets an import found and the program has yet to declare,
 * property → reason. It is in no schema, so no generated program holds it.
 */
export const UNDECLARED = "__undeclaredSecrets";

type AnyKind = Kind<{ id: string }>;

/** A value marked secret, as the engine reads it from any provider. */
const asSecret = (value: unknown) => ({ [specialSigKey]: specialSecretSig, value });

/** What the object holds, in words, and how to remove it: per secret property. */
const HELD: Record<string, { holds: (value: unknown) => string; remove: string }> = {
  headers: {
    holds: (v) => {
      const n = Object.keys(v as object).length;
      return `holds ${n} request header${n === 1 ? "" : "s"} this program does not declare; declare them (from secret config)`;
    },
    remove: " or set `headers: {}` to remove them",
  },
  body: {
    holds: () => "holds a request body this program does not declare; declare it (from secret config)",
    remove: " or set `body: null` to remove it",
  },
};

function heldReason(kind: AnyKind, id: string, property: string, value: unknown): string {
  const held = HELD[property];
  const what = held
    ? held.holds(value)
    : "holds a value this program does not declare; declare it (from secret config)";
  return `${property}: ${kind.label} ${id} ${what}${held?.remove ?? ""}`;
}

/** The kind's secret inputs that hold something other than their default in `props`. */
function heldSecrets(kind: AnyKind, props: Props): [string, unknown][] {
  return kind.fields.writable().flatMap(([property, f]) => {
    const value = props[property];
    const isDefault =
      value === undefined || value === null || same(normalize(f.normal, value), normalize(f.normal, f.default));
    return f.secret && !isDefault ? [[property, value] as [string, unknown]] : [];
  });
}

/**
 * The secret inputs a read records, from the outputs it just computed (which keep what the
 * provider wrote: a channel's config is masked on reads). With no state before (an import), and
 * for those an import left undeclared, none: they are listed under `UNDECLARED` instead.
 */
export function secretInputsOfRead(kind: AnyKind, id: string, outputs: Props, previous: Props): Props {
  const hasState = Object.keys(previous).some((k) => k !== "__provider" && k !== UNDECLARED);
  const undeclaredBefore = (previous[UNDECLARED] ?? {}) as Props;
  const inputs: Props = {};
  const undeclared: Record<string, string> = {};
  for (const [property, value] of heldSecrets(kind, outputs)) {
    if (!hasState || property in undeclaredBefore) undeclared[property] = heldReason(kind, id, property, value);
    else inputs[property] = asSecret(value);
  }
  return Object.keys(undeclared).length ? { ...inputs, [UNDECLARED]: undeclared } : inputs;
}

/** Check failures for the secrets an import left undeclared that the program still leaves out. */
export function undeclaredSecrets(olds: Props, news: Props): Failure[] {
  // The import's own check (its inputs hold the record) passes: it writes nothing.
  const held = olds[UNDECLARED];
  if (news[UNDECLARED] !== undefined || !held || typeof held !== "object") return [];
  return Object.entries(held as Record<string, string>)
    .filter(([property]) => news[property] === undefined)
    .map(([property, reason]) => ({ property, reason }));
}

/**
 * An error when `adopt` would take over an object whose secrets the inputs leave out: the update
 * to the inputs would otherwise wipe them (a PATCH of `headers: {}`) with no diff shown.
 */
export function undeclaredOnAdopt(kind: AnyKind, id: string, live: Props, inputs: Props): Error | undefined {
  const reasons = heldSecrets(kind, live)
    .filter(([property]) => inputs[property] === undefined)
    .map(([property, value]) => heldReason(kind, id, property, value));
  return reasons.length ? new Error(`adopt: ${reasons.join("; ")}`) : undefined;
}
