import { z } from "zod";
import { documentOnlyMeta, type monitorBodySchemas } from "../../api";

/**
 * The named schemas of this copy of the shared module, as zod's global registry held them when it
 * had just loaded (this file imports it first). The global registry is one per process
 * (`globalThis`), and a program that installs both packages loads two copies of the shared module
 * (one in each package), both naming their schemas alike: whichever loaded last owns each id in
 * the registry's id map. Taken now, the map holds this copy's schemas, whatever loads after.
 */
const OWN_NAMED: ReadonlyMap<string, z.ZodType> = new Map(z.globalRegistry._idmap as Map<string, z.ZodType>);

/** The monitor bodies of one server: built from its config, named in its document. */
export type MonitorBodies = ReturnType<typeof monitorBodySchemas>;

/**
 * The schemas one server's OpenAPI document names: every schema of the shared module (zod's
 * global registry), with the monitor bodies replaced by this server's own, so that
 * `interval_sec` states the floor this server enforces. A registry per server, because two
 * servers in one process (tests) may have different floors.
 */
export function documentRegistry(bodies: MonitorBodies): z.core.$ZodRegistry<z.core.GlobalMeta> {
  const registry = z.registry<z.core.GlobalMeta>();
  // Schemas without an id keep their metadata (formats, `if`/`then`, query integers) in the
  // global registry, and the document's own in `documentOnlyMeta`: read both (through `_map`, as
  // fastify-type-provider-zod copies it).
  registry._map = new MapWithFallback([documentOnlyMeta._map, z.globalRegistry._map], ownIdsOnly);
  const own: Record<string, [z.ZodType, string]> = {
    CreateMonitor: [
      bodies.documentedCreate,
      "A monitor's fields, by `type`: each type allows only the fields that apply to it.",
    ],
    UpdateMonitor: [
      bodies.update,
      "Any writable field but `type`; the changed monitor is judged by the rules of its type.",
    ],
  };
  // In the global registry's order, so the document keeps its order of components.
  for (const [id, schema] of OWN_NAMED) {
    const replaced = own[id];
    if (!replaced) {
      registry.add(schema, { ...z.globalRegistry.get(schema), id });
      continue;
    }
    const [mine, description] = replaced;
    const discriminator = mine === bodies.documentedCreate ? { discriminator: { propertyName: "type" } } : {};
    registry.add(mine, { ...z.globalRegistry.get(mine), id, description, ...discriminator });
  }
  return registry;
}

/**
 * A schema's metadata from the global registry without an id that another copy's schema took:
 * only this copy's named schemas are components of this document.
 */
function ownIdsOnly(schema: z.ZodType, meta: z.core.GlobalMeta): z.core.GlobalMeta {
  if (meta.id === undefined || OWN_NAMED.get(meta.id) === schema) return meta;
  const { id: _other, ...rest } = meta;
  return rest;
}

/** A WeakMap that answers from `fallbacks`, in order, what it does not hold itself, through `fallbackView`. */
class MapWithFallback<K extends object, V> extends WeakMap<K, V> {
  constructor(
    private readonly fallbacks: WeakMap<K, V>[],
    private readonly fallbackView: (key: K, value: V) => V,
  ) {
    super();
  }
  override get(key: K): V | undefined {
    if (super.has(key)) return super.get(key);
    const found = this.fallbacks.find((m) => m.has(key))?.get(key);
    return found === undefined ? undefined : this.fallbackView(key, found);
  }
  override has(key: K): boolean {
    return super.has(key) || this.fallbacks.some((m) => m.has(key));
  }
}
