/**
 * `replaceOnChanges` for the dynamic resources. The engine applies the option to the properties a
 * provider's diff names as changed, and a dynamic provider cannot name them (the SDK's
 * dynamic-provider host sends no detailed diff), so the engine alone would ignore it. The
 * resource classes pass the option along as an internal input, and the runtime's diff replaces
 * when a property it names changes.
 */
import type { Props } from "../kinds/values";

/** The internal input that carries the option (set by the resource classes, never by users). */
export const REPLACE_ON_CHANGES_INPUT = "__replaceOnChanges";

/** The top-level property of a property path: `tags[0]` → `tags`, `["x.y"].z` → `x.y`. */
export function topProperty(path: string): string {
  const quoted = /^\["((?:[^"\\]|\\.)*)"\]/.exec(path);
  if (quoted) return (quoted[1] as string).replace(/\\(.)/g, "$1");
  return path.split(/[.[]/)[0] as string;
}

/**
 * Whether a change of this input property replaces the object, by the resource's
 * `replaceOnChanges` option: a path names its top-level property (`headers.x` replaces on any
 * change of `headers`), and `*` names every property.
 */
export function replacesOnChange(inputs: Props, property: string): boolean {
  const paths = inputs[REPLACE_ON_CHANGES_INPUT];
  if (!Array.isArray(paths)) return false;
  return paths.some(
    (p) => typeof p === "string" && (p === "*" || topProperty(p) === property || topProperty(p) === "*"),
  );
}
