/**
 * `write` (a compiled serializer) with its JSON kept per object as UTF-8 bytes, for objects that
 * cannot change (frozen): an answer read from a cache (a monitor kept until a write to it) is
 * written and encoded once, and every later answer with it reuses the bytes. Objects that are not
 * frozen are written each time.
 */
export function keptJson<T extends object>(write: (value: T) => string): (value: T) => Buffer {
  const kept = new WeakMap<T, Buffer>();
  return (value) => {
    if (!Object.isFrozen(value)) return Buffer.from(write(value));
    let json = kept.get(value);
    if (json === undefined) {
      json = Buffer.from(write(value));
      kept.set(value, json);
    }
    return json;
  };
}

const COMMA = Buffer.from(",");

/** `items` (JSON values' bytes) as the bytes of a JSON array between `head` and `tail`. */
export function joinJson(head: string, items: readonly Buffer[], tail: string): Buffer {
  const parts: Buffer[] = [Buffer.from(head)];
  for (const [i, item] of items.entries()) {
    if (i > 0) parts.push(COMMA);
    parts.push(item);
  }
  parts.push(Buffer.from(tail));
  return Buffer.concat(parts);
}
