/**
 * Check failures in the form the Pulumi engine shows well. The engine prints a failure that names a
 * property as `property P value {V} has a problem: …`, with V the input under P: a nested path
 * (`steps[0].url`, `locations[1]`) names no input, so V printed as `<nil>`, and a browser
 * monitor's `script` printed whole. Such a failure goes to the engine without a property (printed
 * as `resource 'R' has a problem: …`); its reason starts with the path.
 */
import type { Failure, Props } from "../kinds/values";

const NESTED = /[.[]/;
/** The longest one-line string the engine may print as a failure's value. */
const SHORT = 80;

/** Whether the engine prints `value` in a line someone reads at a glance. */
const readable = (value: unknown) => typeof value !== "string" || (value.length <= SHORT && !/[\r\n]/.test(value));

/** `failures` with each nested path, and each property whose value is long text, moved into its reason. */
export function forEngine(failures: readonly Failure[], inputs: Props): Failure[] {
  return failures.map((f) => {
    if (!f.property || (!NESTED.test(f.property) && readable(inputs[f.property]))) return f;
    return { property: "", reason: f.reason.startsWith(f.property) ? f.reason : `${f.property}: ${f.reason}` };
  });
}
