/**
 * The native plugin's detailed diff: which input properties differ and how, so the CLI shows
 * exactly those (`pulumi preview --diff`), and the engine can apply a resource's
 * `replaceOnChanges` option (it applies it to the properties a diff names as changed).
 */
import type { Props } from "../provider/kinds/values";
import type { PropertyDiffResult } from "../provider/runtime";

/** How one property differs from the inputs in state, as Pulumi's `PropertyDiff.Kind` names it. */
export type PropertyChange = "add" | "update" | "delete";

/** One property of a detailed diff; `replace` when its change replaces the object. */
export interface PropertyDiff {
  kind: PropertyChange;
  replace: boolean;
}

/** A diff as the plugin answers the engine's `Diff` call. */
export interface PluginDiff {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** The input properties that differ, top-level (the engine's changed keys). */
  diffs: string[];
  /** The same, keyed by property path, compared with the inputs in state. */
  detailedDiff: Record<string, PropertyDiff>;
}

/**
 * The detailed form of the runtime's diff. The runtime compares in normal form with defaults
 * applied, so a property the program leaves at its default, or writes in another spelling,
 * is not listed; whether a change adds, updates or deletes is told by the inputs in state
 * (`oldInputs`) and the program's (`news`), as the CLI shows them.
 */
export function detailedDiff(result: PropertyDiffResult, oldInputs: Props, news: Props): PluginDiff {
  const replaces = [...new Set(result.replaces ?? [])];
  const diffs = [...new Set([...result.changed, ...replaces])];
  const change = (p: string): PropertyChange => {
    const had = oldInputs[p] !== undefined;
    const has = news[p] !== undefined;
    return had === has ? "update" : has ? "add" : "delete";
  };
  return {
    changes: diffs.length > 0,
    replaces,
    deleteBeforeReplace: result.deleteBeforeReplace === true,
    diffs,
    detailedDiff: Object.fromEntries(diffs.map((p) => [p, { kind: change(p), replace: replaces.includes(p) }])),
  };
}
