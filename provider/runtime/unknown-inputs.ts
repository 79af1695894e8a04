/**
 * Input properties a kind does not have: a typo that reached the provider through a spread, plain
 * JavaScript, YAML or Python (TypeScript catches only a literal) would otherwise be dropped
 * silently, and the object created without it. Each is a check failure with the nearest name.
 */
import leven from "leven";
import { type FieldTable, RESOURCE_FIELDS } from "../../api";
import type { Failure, Props } from "../kinds/values";

/**
 * The names a resource's inputs may carry: its table's, the resource-wide ones (`connection`,
 * `adopt`); outputs among them (a lookup's result spread into a resource) are accepted, not offered.
 */
const namesOf = (table: FieldTable) => Object.keys({ ...table, ...RESOURCE_FIELDS });
const inputsOf = (table: FieldTable) =>
  Object.entries({ ...table, ...RESOURCE_FIELDS } as Record<string, { outputOnly?: boolean }>)
    .filter(([, f]) => !f.outputOnly)
    .map(([p]) => p);

/** The closest of `names` to `name`, when close enough to be what was meant. */
function nearest(name: string, names: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  let best: { name: string; distance: number } | undefined;
  for (const candidate of names) {
    const distance = leven(lower, candidate.toLowerCase());
    if (!best || distance < best.distance) best = { name: candidate, distance };
  }
  // A third of the name's length: `expectedStatusCode` → `expectedStatusCodes`, not `name` → `url`.
  return best && best.distance <= Math.max(2, Math.floor(name.length / 3)) ? best.name : undefined;
}

/** A failure per input property of `news` that `label`'s table does not have (internal `__` inputs aside). */
export function unknownInputs(label: string, table: FieldTable, news: Props): Failure[] {
  const names = namesOf(table);
  const inputs = inputsOf(table);
  return Object.keys(news)
    .filter((p) => !p.startsWith("__") && !names.includes(p))
    .map((p) => {
      const guess = nearest(p, inputs);
      const hint = guess ? `did you mean \`${guess}\`?` : `its inputs are ${inputs.join(", ")}`;
      return { property: p, reason: `${p}: a ${label} has no such input; ${hint}` };
    });
}
