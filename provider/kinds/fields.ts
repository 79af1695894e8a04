import { apiRows, type ErrorDetail, type Field, type FieldTable, normalize, RESOURCE_FIELDS } from "../../api";
import type { Connection } from "../client/connection";
import { type Failure, type Props, same } from "./values";

/**
 * The provider's view of a kind's field table (api/fields.ts): the one place where input
 * properties (camelCase) become API fields (snake_case) and back. Comparable values are in API
 * form, keyed by API name, so a PATCH body is a slice of them.
 */
export class Fields {
  private readonly byApi: ReadonlyMap<string, string>;

  constructor(readonly table: FieldTable) {
    this.byApi = new Map(apiRows(table).map(([prop, f]) => [f.api, prop]));
  }

  /** Input properties whose change replaces the object. */
  replaceOnChange(): string[] {
    return Object.entries(this.table)
      .filter(([, f]) => f.replaceOnChange)
      .map(([p]) => p);
  }

  /** Writable API fields: `[property, row]`. */
  writable(): [string, Field & { api: string }][] {
    return apiRows(this.table).filter(([, f]) => !f.outputOnly);
  }

  /** The declared inputs as an API body: API names, only the inputs given. */
  toApi(inputs: Props): Props {
    const out: Props = {};
    for (const [prop, f] of this.writable()) if (inputs[prop] !== undefined) out[f.api] = inputs[prop];
    return out;
  }

  /** The comparable form of inputs (or of outputs): API names, defaults applied, normal forms taken. */
  normalized(props: Props): Props {
    const out: Props = {};
    for (const [prop, f] of this.writable()) out[f.api] = normalize(f.normal, props[prop] ?? f.default);
    return out;
  }

  /**
   * Refreshed inputs without the optional properties whose value is their field's constant
   * default: what a program would declare for the live object. A later diff of a resource then
   * shows only the properties that differ (the engine shows the inputs that differ, for dynamic
   * providers), and the state the engine rewrites after every step stays small.
   */
  withoutDefaults(props: Props): Props {
    const out: Props = {};
    for (const [prop, value] of Object.entries(props)) {
      // A field the service does not return (one older than the field) is not declared either.
      if (value === undefined) continue;
      const f = this.table[prop];
      const isDefault =
        f !== undefined &&
        !f.required &&
        f.default !== undefined &&
        same(normalize(f.normal, value), normalize(f.normal, f.default));
      if (!isDefault) out[prop] = value;
    }
    return out;
  }

  /** An API object as properties; `inputsOnly` keeps writable, non-secret fields (refreshed inputs). */
  fromApi(api: object, inputsOnly = false): Props {
    const values = api as Props;
    const out: Props = {};
    for (const [prop, f] of apiRows(this.table)) {
      if (inputsOnly && (f.outputOnly || f.secret)) continue;
      out[prop] = values[f.api];
    }
    return out;
  }

  /** The input property of a comparable field (an API name, or a property the provider adds). */
  propertyOf(field: string): string {
    return this.byApi.get(field) ?? field;
  }

  /** An API error's field path as an input property path: `channel_ids[0]` → `channelIds[0]`. */
  propertyPath(field: string): string {
    const m = /^([a-z_0-9]+)(.*)$/.exec(field);
    return m ? `${this.propertyOf(m[1] as string)}${m[2]}` : field;
  }

  /** The API's field details as check failures naming input properties. */
  failures(details: readonly ErrorDetail[]): Failure[] {
    return details.map((d) => {
      const property = this.propertyPath(d.field);
      return { property, reason: `${property}: ${d.message}` };
    });
  }

  /** A PATCH body: the changed properties' desired values, by API name. Replacing fields never go. */
  patch(desired: Props, changed: readonly string[]): Props {
    const out: Props = {};
    for (const prop of changed) {
      const f = this.table[prop];
      if (f?.api && !f.replaceOnChange && !f.outputOnly) out[f.api] = desired[f.api];
    }
    return out;
  }
}

/** Input properties kept secret in state, from the table (plus `connection`). */
export function secretProperties(table: FieldTable): string[] {
  const all: FieldTable = { ...table, ...RESOURCE_FIELDS };
  return Object.entries(all)
    .filter(([, f]) => f.secret)
    .map(([p]) => p);
}

/**
 * Every output property a resource declares: each row of the table, and `endpoint`. Each is an
 * `Output` on the object, also for an input left unset (it resolves to the value the service
 * stored): registered where the program gave the input, read from state on first use where not
 * (resources/state-outputs.ts).
 */
export function outputNames(table: FieldTable): string[] {
  const all: FieldTable = { ...table, ...RESOURCE_FIELDS };
  const { adopt: _adopt, connection: _connection, ...outputs } = all;
  return Object.keys(outputs);
}

/**
 * Every output property declared as `undefined`, for a class to spread its inputs over so that
 * the SDK registers each of them (as this package's resources did before they registered only
 * their inputs). Pulumi sends no `undefined` input to the engine.
 */
export function outputPlaceholders(table: FieldTable): Record<string, undefined> {
  return Object.fromEntries(outputNames(table).map((p) => [p, undefined]));
}

/** What every resource's outputs add: the endpoint, and the connection and adopt inputs as given. */
export function resourceOutputs(inputs: Props, connection: Connection): Props {
  return {
    endpoint: connection.baseUrl,
    ...(inputs.connection ? { connection: inputs.connection } : {}),
    ...(inputs.adopt ? { adopt: inputs.adopt } : {}),
    // The resource's customTimeouts, for a delete, which receives only what state recorded.
    ...(inputs.__timeouts ? { __timeouts: inputs.__timeouts } : {}),
  };
}
