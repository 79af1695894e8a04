/**
 * The native plugin's provider: Pulumi's gRPC calls mapped onto the kinds' runtime
 * (`provider/runtime/`), the same code the dynamic resources run. What this file adds is what a
 * plugin sees that a dynamic provider does not: URNs instead of kind names, secrets as wrapped
 * values, and the schema.
 */
import type * as pulumi from "@pulumi/pulumi";
import type * as provider from "@pulumi/pulumi/provider";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { stepsHoldPlainCredential } from "../api";
import type { Failure, Props } from "../provider/kinds/values";
import { KINDS } from "../provider/kinds/registry";
import * as runtime from "../provider/runtime";
import { type PartialConnection, resolveConnection } from "../provider/client/connection";
import { findOne, type LookupQuery, lookupFailures } from "../provider/runtime/lookup";
import { forEngine } from "../provider/runtime/engine-failures";
import { PACKAGE, packageSchema } from "./schema";
import { resourceRows, type SchemaKinds } from "./schema-rows";
import { lookupOutputs, READS, readFailures } from "./functions";
import { type PluginShape, SHAPES } from "./kinds";
import { camelKeys } from "./zod-types";
import { detailedDiff, type PluginDiff } from "./detailed-diff";
import type { ProviderConfig } from "./sdk-gaps";
import { urnIdentity, withIdentity } from "./identity";
import { constructMonitorGroup, MONITOR_GROUP } from "./monitor-group";

const isSecret = (v: unknown): v is { value: unknown } =>
  typeof v === "object" && v !== null && (v as Record<string, unknown>)[specialSigKey] === specialSecretSig;

/** The plain value: secrets unwrapped at any depth (the kinds compare and send plain values). */
export function reveal(value: unknown): unknown {
  if (isSecret(value)) return reveal(value.value);
  if (Array.isArray(value)) return value.map(reveal);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v)]));
  return value;
}

const secret = (value: unknown) => ({ [specialSigKey]: specialSecretSig, value });

/** `urn:pulumi:stack::project::parent$uptime:index:Monitor::name` → kind and resource name. */
export function parseUrn(urn: string, kinds: SchemaKinds): { kind: runtime.KindName; name: string } {
  const parts = urn.split("::");
  const type = (parts[2] ?? "").split("$").pop() ?? "";
  const kind = type.startsWith(`${PACKAGE}:index:`) ? type.slice(PACKAGE.length + 7) : "";
  if (!(kind in kinds) || !(kind in KINDS)) throw new Error(`unknown resource type ${type}`);
  return { kind: kind as runtime.KindName, name: parts.slice(3).join("::") };
}

/**
 * The inputs without the optional properties at their field's default. The generated SDKs fill
 * in the schema's defaults and YAML does not, and refresh records a live object's inputs without
 * them (kinds/fields.ts `withoutDefaults`): in this one form, inputs a program leaves at their
 * default compare equal to refreshed ones, and the state stays as small as the dynamic resources'.
 */
export function withoutDefaults(kind: runtime.KindName, inputs: Props): Props {
  const kept = KINDS[kind].fields.withoutDefaults(reveal(inputs) as Props);
  return Object.fromEntries(Object.entries(inputs).filter(([p]) => p in kept));
}

const SAME: PluginShape = {
  toRuntime: (props) => ({ props }),
  fromRuntime: (props) => props,
  failurePath: (path) => path,
};
const shapeOf = (kind: string): PluginShape => SHAPES[kind] ?? SAME;
/** Plain values in the runtime's form. */
const runtimeForm = (kind: string, props: unknown): Props =>
  shapeOf(kind).toRuntime((reveal(props) ?? {}) as Props).props;

/** A check's result in the plugin's form: failures name the typed properties, the typed form's own first. */
async function checkTyped(
  kind: runtime.KindName,
  olds: Props,
  news: Props,
  identity: ReturnType<typeof urnIdentity>,
): Promise<Failure[]> {
  const shape = shapeOf(kind);
  const written = reveal(news) as Props;
  const { props, problem } = shape.toRuntime(written);
  const result = await runtime.check(kind, runtimeForm(kind, olds), withIdentity(props, identity));
  const failures = (result.failures ?? []).map((f) => {
    const property = shape.failurePath(f.property, written);
    return {
      property,
      reason: f.reason.startsWith(f.property) ? property + f.reason.slice(f.property.length) : f.reason,
    };
  });
  return problem ? [problem, ...failures] : failures;
}

/** Builds the provider for these kinds' tables; `version` is the plugin's. */
export function uptimeProvider(
  kinds: SchemaKinds,
  version: string,
): provider.Provider & {
  configure(config: ProviderConfig): Promise<void>;
  /** `diff` with the detailed diff the engine shows and applies `replaceOnChanges` to. */
  detailedDiff(id: string, urn: string, olds: Props, news: Props, oldInputs: Props): Promise<PluginDiff>;
} {
  const secrets = new Map(
    Object.entries(kinds).map(([name, k]) => [
      name,
      resourceRows(k.table)
        .outputs.filter(([, f]) => f.secret)
        .map(([p]) => p),
    ]),
  );
  // State keeps secret fields encrypted: wrap them on the way out.
  const seal = (kind: string, props: Props | undefined): Props | undefined => {
    if (!props) return props;
    const out = { ...props };
    for (const p of secrets.get(kind) ?? []) if (out[p] !== undefined && !isSecret(out[p])) out[p] = secret(out[p]);
    if (kind === "Monitor" && !isSecret(out.steps) && stepsHoldPlainCredential(out.steps))
      out.steps = secret(out.steps);
    return out;
  };
  const schema = JSON.stringify(packageSchema(kinds, version));
  const typed = (kind: string, props: Props | undefined): Props | undefined =>
    props && shapeOf(kind).fromRuntime(props);
  const of = (urn: string) => parseUrn(urn, kinds);
  let stackInstance: string | undefined;
  return {
    version,
    schema,
    async configure(config) {
      stackInstance = config.stackInstance;
      const get = (key: string) => config[key.replace(/^uptime:/, "") as keyof ProviderConfig];
      await runtime.configure({ config: { get } } as unknown as pulumi.dynamic.ConfigureRequest);
    },
    async check(urn, olds, news) {
      const { kind, name } = of(urn);
      // Like the dynamic resources: the display name defaults to the resource's name.
      const inputs = kinds[kind]?.table.name && news.name === undefined ? { ...news, name } : news;
      // With the identity the create will mark with: a replacement's check (old inputs present) tells
      // the runtime that the object holding this mark is still in state (see runtime/replacing.ts).
      const failures = await checkTyped(kind, olds, inputs, urnIdentity(urn, kind, name, stackInstance));
      const checked = withoutDefaults(kind, inputs);
      // Steps with a credential written as plain text are kept as a secret (api/secret-headers.ts).
      if (kind === "Monitor" && !isSecret(checked.steps) && stepsHoldPlainCredential(reveal(checked.steps)))
        checked.steps = secret(checked.steps);
      return { inputs: checked, failures: forEngine(failures, reveal(inputs) as Props) };
    },
    async diff(id, urn, olds, news) {
      const { kind } = of(urn);
      return runtime.diff(kind, id, runtimeForm(kind, olds), runtimeForm(kind, news));
    },
    async detailedDiff(id, urn, olds, news, oldInputs) {
      const { kind } = of(urn);
      const plainNews = runtimeForm(kind, news);
      const result = await runtime.diff(kind, id, runtimeForm(kind, olds), plainNews);
      return detailedDiff(result, reveal(oldInputs) as Props, plainNews);
    },
    async create(urn, inputs) {
      const { kind, name } = of(urn);
      // Marked and keyed like the dynamic resources' creates: a killed run's object is found again.
      const result = await runtime.create(
        kind,
        withIdentity(runtimeForm(kind, inputs), urnIdentity(urn, kind, name, stackInstance)),
      );
      return { id: result.id, outs: seal(kind, typed(kind, result.outs)) };
    },
    async read(id, urn, props) {
      const { kind } = of(urn);
      const result = await runtime.read(kind, id, runtimeForm(kind, props));
      return { id: result.id, props: seal(kind, typed(kind, result.props)), inputs: typed(kind, result.inputs) };
    },
    async update(id, urn, olds, news) {
      const { kind } = of(urn);
      const result = await runtime.update(kind, id, runtimeForm(kind, olds), runtimeForm(kind, news));
      return { outs: seal(kind, typed(kind, result.outs)) };
    },
    async delete(id, urn, props) {
      const { kind } = of(urn);
      await runtime.remove(kind, id, runtimeForm(kind, props));
    },
    async construct(name, type, inputs, options) {
      if (type !== MONITOR_GROUP) throw new Error(`unknown component type ${type}`);
      return constructMonitorGroup(name, inputs, options);
    },
    async invoke(token, inputs) {
      const name = token.startsWith(`${PACKAGE}:index:`) ? token.slice(PACKAGE.length + 7) : "";
      const args = reveal(inputs) as Props;
      const connection = args.connection as PartialConnection | undefined;
      const read = READS[name];
      if (read) {
        const failures = readFailures(name, args);
        return failures.length > 0 ? { failures } : { outputs: camelKeys(await read(args, connection)) };
      }
      const kind = name.slice(3);
      if (!name.startsWith("get") || !(kind in kinds) || !(kind in KINDS)) throw new Error(`unknown function ${token}`);
      const query = { id: args.id, name: args.name, slug: args.slug } as LookupQuery;
      const failures = lookupFailures(kind as runtime.KindName, query);
      if (failures.length > 0) return { failures };
      const outs = await findOne(
        kind as runtime.KindName,
        query,
        resolveConnection(connection, runtime.configuredStack()),
      );
      const found = typed(kind, outs) as Props;
      const keep = lookupOutputs(kinds[kind]!)
        .map(([p]) => p)
        .filter((p) => found[p] !== undefined);
      return { outputs: Object.fromEntries(keep.map((p) => [p, found[p]])) };
    },
  };
}
