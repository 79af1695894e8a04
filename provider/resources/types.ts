import type * as pulumi from "@pulumi/pulumi";
import type {
  Assertion,
  EscalationStep,
  FieldTable,
  FieldType,
  MonitorStep,
  RESOURCE_FIELDS,
  RetryStrategy,
  StepExtraction,
} from "../../api";
import type { ConnectionArgs } from "./options";

/**
 * Resource types derived from a kind's field table (api/fields.ts): each property keeps the
 * JSDoc of its row, so the editor shows it on `new Monitor(…)` and on the outputs.
 */

/** The TypeScript type a field type describes. */
export type TsOf<T> = T extends { nullable: true } ? Plain<T> | null : Plain<T>;
/** The TypeScript types of the tables' named object types (`ref`). */
interface NamedTypes {
  Assertion: Assertion;
  EscalationStep: EscalationStep;
  MonitorStep: MonitorStep;
  StepExtraction: StepExtraction;
  RetryStrategy: RetryStrategy;
}

type Plain<T> = T extends { ref: infer N extends keyof NamedTypes }
  ? NamedTypes[N]
  : T extends { enum: readonly (infer E)[] }
    ? E
    : T extends { type: "string" }
      ? string
      : T extends { type: "integer" | "number" }
        ? number
        : T extends { type: "boolean" }
          ? boolean
          : T extends { type: "array"; items: { oneOf: readonly (infer I)[] } }
            ? TsOf<I>[]
            : T extends { type: "array"; items: infer I }
              ? TsOf<I>[]
              : T extends { type: "object"; additionalProperties: infer V }
                ? Record<string, TsOf<V>>
                : T extends { type: "object"; properties: infer P }
                  ? ObjectOf<P, T extends { requiredProperties: readonly (infer R)[] } ? R : never>
                  : never;

/** An object type described by its `properties` (a status page's sections, components, rules). */
type ObjectOf<P, R> = { [K in keyof P as K extends R ? K : never]: TsOf<P[K]> } & {
  [K in keyof P as K extends R ? never : K]?: TsOf<P[K]>;
} extends infer O
  ? { [K in keyof O]: O[K] }
  : never;

/**
 * A `pulumi.Input` of the type, with inputs inside arrays and maps too. Not distributive: a
 * `boolean` or an enum takes an `Output<boolean>` (an apply's result), not only `Output<true>`.
 */
type InputOf<T> = [T] extends [readonly (infer E)[]]
  ? pulumi.Input<pulumi.Input<ItemInput<E>>[]>
  : [T] extends [Record<string, infer V>]
    ? pulumi.Input<Record<string, pulumi.Input<V>>>
    : pulumi.Input<T>;

/**
 * An escalation step takes inputs in its fields: `{ after: 300, channels: [pager.id] }` names
 * channels by their Outputs; a step takes inputs in its name, URL and body (a service's URL is
 * often an Output). (Assertions stay plain: an Input around `source` would lose the
 * narrowing that tells which fields each source allows.)
 */
type ItemInput<E> = [E] extends [EscalationStep]
  ? { [K in keyof EscalationStep]: InputOf<EscalationStep[K]> }
  : [E] extends [MonitorStep]
    ? { [K in keyof MonitorStep]: K extends "url" | "body" | "name" ? InputOf<MonitorStep[K]> : MonitorStep[K] }
    : [E] extends [Assertion | StepExtraction]
      ? E
      : [E] extends [Record<string, unknown>]
        ? { [K in keyof E]: InputOf<NonNullable<E[K]>> | Extract<E[K], null> }
        : E;

type Row = { type: FieldType; required?: boolean; outputOnly?: boolean };
type WithResource<T> = T & Pick<typeof RESOURCE_FIELDS, "adopt" | "connection" | "endpoint">;
type InputValue<K, R> = K extends "connection"
  ? pulumi.Input<ConnectionArgs>
  : InputOf<NonNullable<TsOf<R extends Row ? R["type"] : never>>>;

type Kind<R> = R extends { outputOnly: true } ? "output" : R extends { required: true } ? "required" : "optional";
type KeysOf<T, W extends string> = { [K in keyof T]: Kind<T[K]> extends W ? K : never }[keyof T];

/** The inputs of a resource: its table's writable rows, plus `adopt` and `connection`. */
export type ArgsOf<T extends FieldTable> = Pick<AllArgs<T>, KeysOf<WithResource<T>, "required">> &
  Partial<Pick<AllArgs<T>, KeysOf<WithResource<T>, "optional">>>;
// Homomorphic over the table, so every property keeps its row's JSDoc.
type AllArgs<T> = { [K in keyof WithResource<T>]: InputValue<K, WithResource<T>[K]> };

/** The outputs of a resource: every row of its table, plus `endpoint`. */
export type OutputsOf<T extends FieldTable> = Omit<AllOutputs<T>, "adopt" | "connection">;
type AllOutputs<T> = {
  readonly [K in keyof WithResource<T>]: pulumi.Output<
    TsOf<WithResource<T>[K] extends Row ? WithResource<T>[K]["type"] : never>
  >;
};

/** Outputs `O` where the properties `K` may be `undefined` (each keeps its JSDoc). */
export type MaybeUndefined<O, K extends PropertyKey> = {
  readonly [P in keyof O]: P extends K
    ? O[P] extends pulumi.Output<infer V>
      ? pulumi.Output<V | undefined>
      : O[P]
    : O[P];
};
