/**
 * Resource names of imported objects: a camelCase identifier from the object's name, valid as a
 * TypeScript variable and a Pulumi resource name, unique in the program and stable across runs
 * (objects are named in creation order; only a later colliding object gets a suffix of its id).
 */

const RESERVED = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for " +
    "function if import in instanceof new null return super switch this throw true try typeof var void while with " +
    "yield let static implements interface package private protected public await as any async of arguments eval " +
    "config pulumi uptime undefined NaN Infinity"
  ).split(" "),
);

/** "API health (prod)" → "apiHealthProd"; "" → the fallback. */
export function identifierOf(name: string, fallback: string): string {
  const words = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .slice(0, 6);
  let id = words.map((w, i) => (i === 0 ? w.toLowerCase() : w[0]?.toUpperCase() + w.slice(1).toLowerCase())).join("");
  if (!id) id = fallback;
  if (/^[0-9]/.test(id)) id = `${fallback}${id[0]?.toUpperCase()}${id.slice(1)}`;
  if (RESERVED.has(id)) id = `${fallback}${id[0]?.toUpperCase()}${id.slice(1)}`;
  return id.slice(0, 48);
}

/** The short suffix of an id used on collisions: its last characters, alphanumeric. */
const idSuffix = (id: string, length: number): string => id.replace(/[^A-Za-z0-9]/g, "").slice(-length);

/** Something to name: its id, display name, creation time and a fallback word for its kind. */
export interface Nameable {
  id: string;
  name: string;
  createdAt: string;
  kind: string;
}

/** Assigns every object a unique identifier, earliest created first; returns id → identifier. */
export function assignNames(objects: readonly Nameable[]): Map<string, string> {
  const ordered = [...objects].sort((a, b) =>
    a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1,
  );
  const taken = new Set<string>();
  const out = new Map<string, string>();
  for (const o of ordered) {
    const base = identifierOf(o.name, o.kind);
    let name = base;
    for (let length = 4; taken.has(name); length += 2) {
      name = `${base}${idSuffix(o.id, length)}`;
      if (length > o.id.length) name = `${base}${taken.size}`;
    }
    taken.add(name);
    out.set(o.id, name);
  }
  return out;
}
