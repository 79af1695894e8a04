/**
 * The shape of a kind's field table as the schema generator reads it: one row per property.
 * The rows themselves live next to the API schema (`api/`); this file only names what the native
 * plugin's schema needs from them.
 */

/** A property's type in the Pulumi schema. */
export type FieldType =
  | "string"
  | "integer"
  | "boolean"
  | "string[]"
  | "string-map"
  /** A set of status codes or classes: integers (200) and strings ("2xx"). */
  | "status-codes";

/** One property of a resource kind. */
export interface FieldRow {
  /** The Pulumi property name (camelCase), e.g. `intervalSec`. */
  property: string;
  /** The API's field name (snake_case), e.g. `interval_sec`; absent for Pulumi-only fields. */
  api?: string;
  type: FieldType;
  /** What the user sees in the schema, SDK docs and editor. */
  description: string;
  /** Stored encrypted in state. */
  secret?: boolean;
  /** Changing it replaces the object. */
  replaceOnChange?: boolean;
  /** Set by the service; not an input. */
  outputOnly?: boolean;
  /** An input the program must give (the name, defaulted from the resource name, is not). */
  required?: boolean;
  /** The service's default when the input is left out. */
  default?: string | number | boolean;
}

/** A resource kind's table: its Pulumi type name, a description and its rows. */
export interface KindTable {
  /** `Monitor`, `Channel`, `StatusPage`: the token is `uptime:index:<name>`. */
  name: string;
  description: string;
  fields: readonly FieldRow[];
}
