/**
 * Names the variants of each union discriminated by `type` (a create's monitor and channel
 * bodies): each inline variant moves to `components.schemas` under its own name
 * (`CreateMonitorHttp`, `CreateChannelWebhookInput`) and the union refers to it, with the
 * discriminator's mapping. Generators then give each variant a type of its own, and the
 * discriminator can select a variant, which it cannot among inline schemas (OpenAPI 3.1, 4.8.25).
 */
type Schema = Record<string, unknown> & {
  oneOf?: Schema[];
  properties?: Record<string, Schema>;
  discriminator?: unknown;
  const?: unknown;
};

const pascal = (s: string) => s.replace(/(^|[^A-Za-z0-9]+)([A-Za-z0-9])/g, (_all, _sep, c: string) => c.toUpperCase());

/** The variant's name: the union's, with the type before a trailing `Input`. */
const variantName = (union: string, type: string) => union.replace(/(Input)?$/, (suffix) => `${pascal(type)}${suffix}`);

/** Moves the `type`-discriminated variants of every union in the document's components to named schemas. */
export function withNamedVariants<T>(document: T): T {
  const schemas = (document as { components?: { schemas?: Record<string, Schema> } }).components?.schemas;
  if (!schemas) return document;
  for (const [name, schema] of Object.entries(schemas)) {
    const variants = schema.oneOf;
    const types = variants?.map((v) => v.properties?.type?.const);
    if (!variants?.length || !types?.every((t): t is string => typeof t === "string")) continue;
    const mapping: Record<string, string> = {};
    schema.oneOf = variants.map((variant, i) => {
      const variantKey = variantName(name, types[i] as string);
      if (schemas[variantKey]) throw new Error(`OpenAPI: the variant name ${variantKey} of ${name} is taken`);
      schemas[variantKey] = variant;
      mapping[types[i] as string] = `#/components/schemas/${variantKey}`;
      return { $ref: mapping[types[i] as string] };
    });
    schema.discriminator = { propertyName: "type", mapping };
  }
  return document;
}
