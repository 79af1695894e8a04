/**
 * What this provider process knows about the resources of the running deployment, so that a
 * replacement never takes over, and then deletes, the object it replaces.
 *
 * `pulumi up --replace` and a `deleteBeforeReplace: false` replacement create the new object
 * while the old one still exists. The new create carries the same mark (and, for unchanged inputs,
 * the same Idempotency-Key), so the service points it at the old object; taking that over and
 * letting the engine delete the old resource would delete the only object. Pulumi sends `check`
 * with the old inputs before it creates a replacement, which is how the provider knows.
 */

/** Marks of resources this deployment checked with inputs from state (they exist there). */
const inState = new Set<string>();
/** `<path>/<id>` of objects a create in this process took over. */
const takenOver = new Set<string>();

/** Notes that the resource marked `mark` already exists in state (its `check` had old inputs). */
export function noteInState(mark: string): void {
  inState.add(mark);
}

/** Whether an object found by `mark` may still be held by the resource a create replaces. */
export function mayBeHeldByReplaced(mark: string): boolean {
  return inState.has(mark);
}

/** Notes that a create took over the object at `path/id`. */
export function noteTakenOver(path: string, id: string): void {
  takenOver.add(`${path}/${id}`);
}

/**
 * Whether deleting `path/id` would delete an object that a create in this deployment took over:
 * the old resource of a replacement whose new resource now holds it.
 */
export function heldByReplacement(path: string, id: string): boolean {
  return takenOver.has(`${path}/${id}`);
}
