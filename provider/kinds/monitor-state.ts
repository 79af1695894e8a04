import { appliesTo, type Field, MONITOR_FIELDS, normalize, TYPE_SPECIFIC_PROPERTIES } from "../../api";
import { type Props, same } from "./values";

const ROWS = MONITOR_FIELDS as Readonly<Record<string, Field>>;

/** What the service holds for a property left unset: its default, `null` for a nullable output; undefined: none. */
function unsetValue(row: Field): unknown {
  if (row.dynamicDefault !== undefined) return undefined;
  return row.default !== undefined ? row.default : row.outputOnly && row.type.nullable ? null : undefined;
}

/** Whether `value` is what the service holds for the property left unset. */
function isUnset(row: Field, value: unknown): boolean {
  const unset = unsetValue(row);
  if (unset === undefined) return false;
  if (value === null || unset === null) return value === unset;
  return same(normalize(row.normal, value), normalize(row.normal, unset));
}

/**
 * A monitor's outputs as its state keeps them: without the properties of other types (their
 * descriptors', api/monitor-types/) and without those of its own type that are `null` ("none"),
 * while they hold what the service holds for them unset. Each step of the engine rewrites every
 * resource's state, so a plain http monitor carried 47 outputs, most of them null; now it carries
 * what its type needs. Nothing is lost to a diff: the provider compares a property left out as
 * its default, which is what it held (a property of another type set to something else stays).
 * Programs read `null` for a property of the monitor's type left out, and `undefined` for one of
 * another type (`absentMonitorOutput`).
 */
export function monitorState(outputs: Props): Props {
  const out: Props = {};
  for (const [prop, value] of Object.entries(outputs)) {
    const row = ROWS[prop];
    const leftOut =
      row !== undefined && isUnset(row, value) && (unsetValue(row) === null || !appliesTo(outputs.type, prop));
    if (!leftOut) out[prop] = value;
  }
  return out;
}

/** What a program reads for the output `name` of a monitor whose state (`state`) left it out. */
export function absentMonitorOutput(state: Props, name: string): unknown {
  const row = ROWS[name];
  return row && appliesTo(state.type, name) && unsetValue(row) === null ? null : undefined;
}

/**
 * Outputs a monitor's state may leave out: each property of some types only, each whose unset
 * value is `null`, and the fingerprints of secrets (recorded only for a monitor that has some).
 */
export const MONITOR_STATE_LEAVES_OUT: readonly string[] = [
  ...new Set([
    ...TYPE_SPECIFIC_PROPERTIES,
    ...Object.entries(ROWS)
      .filter(([, row]) => unsetValue(row) === null)
      .map(([p]) => p),
    "writtenSecrets",
  ]),
];
