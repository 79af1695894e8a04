/**
 * The provider's implementation, loaded by package name from each resource's `__provider` (see
 * resources/dynamic-resource.ts), so the installed version runs whatever state was written by: `providerOf` for
 * what this version writes, the functions by name for the closures earlier versions wrote.
 */
import "../node-version";
import type * as pulumi from "@pulumi/pulumi";
import { clientFor, UptimeClient } from "../client/client";
import { type Connection, type PartialConnection, resolveConnection } from "../client/connection";
import { parseTimeout, TIMEOUTS_INPUT, withDeadline } from "../client/deadline";
import { prefetched } from "../client/bulk-read";
import { write } from "../client/batch";
import { hasCode } from "../client/errors";
import { hasExtensions } from "../client/extensions";
import { stepsRefusals, targetRefusal } from "../client/location-policies";
import { explainFailure } from "../client/failure";
import { findByMark, identityOf, markedCreate, markTaken, resourceName } from "./marks";
import { markOf } from "./identity";
import { connectionArgChanged, keyFrom, movedFrom, movedWarning } from "./connection-change";
import { heldByReplacement, mayBeHeldByReplaced, noteInState, noteTakenOver } from "./replacing";
import { replacesOnChange } from "./replace-on-changes";
import { testCheck } from "./test-checks";
import { serviceFailures } from "./service-checks";
import { unknownInputs } from "./unknown-inputs";
import { forEngine } from "./engine-failures";
import { stackIdentityProvider } from "./stack-identity";
import { secretInputsOfRead, undeclaredOnAdopt, undeclaredSecrets } from "./secret-inputs";
import { type Kind } from "../kinds/kind";
import { type Failure, isUnknown, KnownInputs, type Props, same } from "../kinds/values";
import { KINDS, type KindName } from "../kinds/registry";

export type { KindName } from "../kinds/registry";

type AnyKind = Kind<{ id: string }>;
type DiffResult = pulumi.dynamic.DiffResult;

/** A diff with the input properties that differ (a native plugin's detailed diff names them). */
export type PropertyDiffResult = DiffResult & { changed: string[] };

let stackConfig: PartialConnection = {};
/** `uptime:testChecks`: run each created or changed monitor's check at preview and up (test-checks.ts). */
let testChecks: string | undefined;

/**
 * Receives the stack config once per provider process: `uptime:baseUrl`, `uptime:apiKey`,
 * `uptime:allowInsecureHttp`, `uptime:testChecks`.
 */
export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  const get = (key: string) => req.config.get(`uptime:${key}`);
  stackConfig = { baseUrl: get("baseUrl"), apiKey: get("apiKey"), allowInsecureHttp: get("allowInsecureHttp") };
  testChecks = get("testChecks");
}

/** The stack config `configure` received: a native plugin's functions resolve connections with it. */
export const configuredStack = (): PartialConnection => stackConfig;

const kindOf = (name: KindName) => KINDS[name] as unknown as AnyKind;

function connect(inputs: Props): { connection: Connection; client: UptimeClient } {
  const connection = resolveConnection(inputs.connection as PartialConnection | undefined, stackConfig);
  return { connection, client: clientFor(connection) };
}

async function byIdWorks(kind: AnyKind, client: UptimeClient): Promise<boolean> {
  return !kind.byIdIsExtension || (await hasExtensions(client));
}

/** The live object, or undefined when it is gone. Without the extensions, found by listing. */
async function fetchLive(kind: AnyKind, client: UptimeClient, id: string): Promise<{ id: string } | undefined> {
  if (!(await byIdWorks(kind, client))) {
    return (await client.listAll<{ id: string }>(kind.path)).find((o) => o.id === id);
  }
  try {
    return (await client.request<{ id: string }>("GET", `${kind.path}/${id}`)).data;
  } catch (err) {
    if (hasCode(err, "not_found")) return undefined;
    throw err;
  }
}

/** Input properties whose desired value differs from the state (unknown ones count as changed). */
function changedProperties(kind: AnyKind, id: string | undefined, olds: Props, news: Props): string[] {
  const desired = kind.desired(news, id);
  const actual = kind.actual(olds);
  const changed = new Set<string>();
  for (const field of Object.keys(desired)) {
    const prop = kind.propertyOf(field);
    if (isUnknown(news[prop]) || !same(desired[field], actual[field])) changed.add(prop);
  }
  return [...changed];
}

export async function check(name: KindName, olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  const kind = kindOf(name);
  // Old inputs: the resource exists in state (see replacing.ts).
  const identity = identityOf(news);
  if (identity && Object.keys(olds ?? {}).length > 0) noteInState(markOf(identity));
  const failures: Failure[] = [];
  if (!isUnknown(news.connection)) {
    try {
      resolveConnection(news.connection as PartialConnection | undefined, stackConfig);
    } catch (err) {
      failures.push({ property: "connection", reason: (err as Error).message });
    }
  }
  // At preview an input may not be known yet (an Output of another resource): the known part is
  // validated, and nothing is reported about what is not known. Internal inputs (the identity,
  // unknown in a stack's first preview) are no fields.
  const known = new KnownInputs(Object.fromEntries(Object.entries(news).filter(([k]) => !k.startsWith("__"))));
  failures.push(...unknownInputs(kind.label, kind.fields.table, news));
  failures.push(...known.judge(kind.validate(known.props, known.complete)));
  failures.push(...undeclaredSecrets(olds, news));
  // What only the service knows (the key works; the locations exist and can run the type).
  if (failures.length === 0) failures.push(...(await serviceFailures(name, news, stackConfig)));
  if (name === "Monitor" && failures.length === 0) failures.push(...(await targetFailures(news)));
  // A monitor whose connection is unknown yet is skipped there, like any other unknown input.
  if (name === "Monitor")
    failures.push(
      ...(await testCheck(kind, olds, news, { connection: stackConfig, testChecks }, failures.length === 0)),
    );
  return { inputs: news, failures };
}

/**
 * The server's rule for a monitor's target, judged by the outbound policy of each of its
 * locations, checked at preview as the server checks it at create (a private-network agent may
 * watch a private name the server itself may not reach). Skipped while an input it needs is
 * unknown, for monitors that open no connection, and when the server cannot be asked: the create
 * then says the same thing.
 */
async function targetFailures(news: Props): Promise<Failure[]> {
  const { url, type, locations } = news;
  if (isUnknown(type) || type === "heartbeat" || type === "dns" || isUnknown(locations) || isUnknown(news.connection))
    return [];
  if (Array.isArray(locations) && locations.some(isUnknown)) return [];
  // A multi-step monitor's steps, as the server judges `steps[i].url`: once every step's URL is known.
  const listed = type === "multistep" && Array.isArray(news.steps) ? (news.steps as unknown[]) : [];
  const known = (st: unknown): st is { url: string } =>
    typeof (st as { url?: unknown } | null)?.url === "string" && !isUnknown((st as { url: unknown }).url);
  const steps = listed.every(known) ? listed : [];
  if ((typeof url !== "string" || isUnknown(url)) && steps.length === 0) return [];
  try {
    const client = clientFor(resolveConnection(news.connection as PartialConnection | undefined, stackConfig));
    const names = Array.isArray(locations) ? (locations as string[]) : null;
    const why = typeof url === "string" && !isUnknown(url) ? await targetRefusal(client, url, names) : undefined;
    const failures: Failure[] = why ? [{ property: "url", reason: why }] : [];
    for (const d of steps.length > 0 ? await stepsRefusals(client, steps, names) : [])
      failures.push({ property: d.field, reason: `${d.field}: ${d.message}` });
    return failures;
  } catch {
    return [];
  }
}

export async function diff(name: KindName, id: string, olds: Props, news: Props): Promise<PropertyDiffResult> {
  const kind = kindOf(name);
  const changed = changedProperties(kind, id, olds, news);
  const replaces = changed.filter((p) => kind.replaceOnChange.includes(p) || replacesOnChange(news, p));
  if (isUnknown(news.connection)) {
    changed.push("connection");
  } else {
    const { connection, client } = connect(news);
    // A server without PATCH for this kind is updated by replacing the object.
    if (changed.length && !(await byIdWorks(kind, client)))
      replaces.push(...changed.filter((p) => !replaces.includes(p)));
    // A new key or another spelling of the endpoint rewrites state in place; see connection-change.ts.
    const from = movedFrom(olds, connection);
    if (from && !(await explained(name, "read", news, id, async () => fetchLive(kind, client, id)))) {
      console.warn(movedWarning(kind.label, id, from, connection.baseUrl));
      replaces.push("connection");
    }
    if (from || connectionArgChanged(olds, news)) changed.push("connection");
  }
  // Dynamic providers cannot return a detailed diff (this SDK drops it); the engine then shows the
  // input properties that differ, which `read` keeps exact by returning refreshed inputs.
  // A replacement deletes first: the new object carries the same mark (and a StatusPage the same
  // slug), and a create must never take over the object it replaces.
  return { changes: changed.length > 0, replaces, deleteBeforeReplace: true, changed };
}

/** How an existing object came to be taken over: `adopt`, a replayed create, or its mark. */
type TakeOver = "adopt" | "replay" | "mark";

function typeMismatch(kind: AnyKind, id: string, liveType: unknown, inputs: Props, why: TakeOver): Error {
  const declared = String(inputs.type);
  if (why === "adopt")
    return new Error(`adopt: ${kind.label} ${id} is of type ${liveType}, but the program declares type ${declared}`);
  return new Error(
    `${kind.label} ${id} carries this resource's mark (an interrupted run made it) but is of type ${liveType}, and the ` +
      `program declares ${declared}: delete it on the service, then run \`pulumi up\` again`,
  );
}

/** What a create or a take-over writes: the kind, through which client and connection, with which inputs. */
interface Target {
  kind: AnyKind;
  client: UptimeClient;
  connection: Connection;
  inputs: Props;
}

/**
 * Makes the existing object `id` the resource's: checks its type, then PATCHes the fields that
 * differ from the inputs (none, for a replay of an untouched create).
 */
async function takeOver(target: Target, id: string, why: TakeOver): Promise<{ id: string }> {
  const { kind, client, connection, inputs } = target;
  const live = await fetchLive(kind, client, id);
  if (!live) throw new Error(`${why === "adopt" ? "adopt: " : ""}there is no ${kind.label} ${id} in this account`);
  const liveType = (live as { type?: string }).type;
  if (kind.replaceOnChange.includes("type") && liveType !== inputs.type)
    throw typeMismatch(kind, id, liveType, inputs, why);
  // Nothing recorded yet: what the provider cannot compare (a channel's config) counts as changed.
  const asIs = kind.outputs(live, inputs, connection, { props: {}, rewrote: [] });
  const undeclared = why === "adopt" ? undeclaredOnAdopt(kind, id, asIs, inputs) : undefined;
  if (undeclared) throw undeclared;
  const changed = changedProperties(kind, id, asIs, inputs).filter((p) => p !== "paused");
  if (changed.length === 0) return live;
  if (!(await byIdWorks(kind, client))) {
    throw new Error(
      `adopt: this server cannot update a ${kind.label}; declare it exactly as it is (${changed.join(", ")} differ)`,
    );
  }
  return (
    await client.request<{ id: string }>("PATCH", `${kind.path}/${id}`, { body: kind.patchBody(inputs, changed, id) })
  ).data;
}

/**
 * POSTs with the resource's mark and its deterministic Idempotency-Key (see identity.ts). A
 * replayed answer (the object an interrupted run created) or a taken mark (the same, past the
 * key's 24 hours) is taken over instead of creating a second object.
 */
async function createMarked(target: Target): Promise<{ id: string }> {
  const { kind, client, connection, inputs } = target;
  const sent = markedCreate(inputs, kind.createBody(inputs), connection.apiKey, await hasExtensions(client));
  try {
    const answer = await write<{ id: string }>(client, kind.path, {
      op: "create",
      body: sent.body,
      idempotencyKey: sent.idempotencyKey ?? UptimeClient.idempotencyKey(),
    });
    return answer.replayed ? await takeOverUnlessReplaced(target, answer.data.id, "replay") : answer.data;
  } catch (err) {
    const holder = sent.mark && markTaken(err) ? await findByMark(client, kind.path, sent.mark) : undefined;
    if (!holder) throw err;
    return takeOverUnlessReplaced(target, holder.id, "mark");
  }
}

/**
 * Takes over what a replay or a mark points at, unless it may be the object of the resource this
 * create replaces (a replacement created before the old one is deleted: `pulumi up --replace`
 * of the native plugin, or `deleteBeforeReplace: false`). Then it creates a fresh object, without
 * the mark that the old object still holds, so that deleting the old one loses nothing.
 */
async function takeOverUnlessReplaced(target: Target, id: string, why: TakeOver): Promise<{ id: string }> {
  const { kind, client, inputs } = target;
  const identity = identityOf(inputs);
  if (identity && mayBeHeldByReplaced(markOf(identity))) {
    console.warn(
      `warning: ${kind.label} "${identity.name}" is replaced while its old object ${id} still exists; the new one is ` +
        "created without the resource's mark (set `deleteBeforeReplace: true` to replace deleting first)",
    );
    const answer = await client.request<{ id: string }>("POST", kind.path, {
      body: kind.createBody(inputs),
      idempotencyKey: UptimeClient.idempotencyKey(),
    });
    return answer.data;
  }
  const taken = await takeOver(target, id, why);
  noteTakenOver(kind.path, taken.id);
  return taken;
}

/** Runs a provider method; an API failure becomes a message naming the resource and what to do. */
async function explained<T>(
  name: KindName,
  action: string,
  props: Props,
  id: string | undefined,
  run: (c: ReturnType<typeof connect>) => Promise<T>,
): Promise<T> {
  const connected = connect(props);
  // The resource's customTimeouts, passed by its class (the dynamic-provider host drops the engine's).
  const ms = await parseTimeout((props[TIMEOUTS_INPUT] as Record<string, unknown> | undefined)?.[action]);
  try {
    return await withDeadline(ms, `customTimeouts.${action}`, () => run(connected));
  } catch (err) {
    const { baseUrl } = connected.connection;
    throw explainFailure(err, {
      kind: name,
      resource: resourceName(props, id),
      action,
      baseUrl,
      keyFrom: keyFrom(connected.connection, action),
    });
  }
}

/** The outputs as the state keeps them (see `Kind.state`). */
const stateOf = (kind: AnyKind, outputs: Props): Props => (kind.state ? kind.state(outputs) : outputs);

export async function create(name: KindName, inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const kind = kindOf(name);
  return explained(name, "create", inputs, undefined, async ({ connection, client }) => {
    let api = inputs.adopt
      ? await takeOver({ kind, client, connection, inputs }, String(inputs.adopt), "adopt")
      : await createMarked({ kind, client, connection, inputs });
    if (kind.afterWrite) api = await kind.afterWrite(client, api, inputs);
    if (kind.afterCreate) api = await kind.afterCreate(client, api, inputs);
    return { id: api.id, outs: stateOf(kind, kind.outputs(api, inputs, connection)) };
  });
}

export async function read(name: KindName, id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
  const kind = kindOf(name);
  return explained(name, "read", props, id, async ({ connection, client }) => {
    // Answered from one list of the kind shared by every read; a missing id is confirmed by id.
    const live = (await prefetched(client, kind.path, id)) ?? (await fetchLive(kind, client, id));
    if (!live) return {};
    const outputs = kind.outputs(live, props, connection, { props, rewrote: [] });
    const inputs = {
      ...kind.fields.withoutDefaults(kind.refreshedInputs(live)),
      ...secretInputsOfRead(kind, id, outputs, props),
    };
    return { id, props: stateOf(kind, outputs), inputs };
  });
}

export async function update(
  name: KindName,
  id: string,
  olds: Props,
  news: Props,
): Promise<pulumi.dynamic.UpdateResult> {
  const kind = kindOf(name);
  return explained(name, "update", news, id, async ({ connection, client }) => {
    const changed = changedProperties(kind, id, olds, news).filter((p) => p !== "paused");
    let api: { id: string } | undefined;
    if (changed.length) {
      if (!(await byIdWorks(kind, client))) throw new Error(`this server cannot update a ${kind.label} in place`);
      api = (
        await write<{ id: string }>(client, kind.path, { op: "update", id, body: kind.patchBody(news, changed, id) })
      ).data;
    } else {
      api = await fetchLive(kind, client, id);
      if (!api) throw new Error(`${kind.label} ${id} no longer exists; run \`pulumi refresh\` to recreate it`);
    }
    if (kind.afterWrite) api = await kind.afterWrite(client, api, news);
    return { outs: stateOf(kind, kind.outputs(api, news, connection, { props: olds, rewrote: changed })) };
  });
}

export async function remove(name: KindName, id: string, props: Props): Promise<void> {
  const kind = kindOf(name);
  return explained(name, "delete", props, id, async ({ client }) => {
    if (heldByReplacement(kind.path, id)) {
      console.warn(`warning: ${kind.label} ${id} was taken over by the resource that replaces it, so it is kept`);
      return;
    }
    if (!(await byIdWorks(kind, client))) {
      console.warn(`warning: this server cannot delete a ${kind.label}; ${id} was left in place`);
      return;
    }
    try {
      await write(client, kind.path, { op: "delete", id });
    } catch (err) {
      if (!hasCode(err, "not_found")) throw err;
    }
  });
}

const providers = new Map<KindName, pulumi.dynamic.ResourceProvider>();

/**
 * The provider object of a kind, as the `__provider` text of its resources asks for it (see
 * resources/dynamic-resource.ts). One per kind and process; `configure` runs once for each.
 * `StackIdentity` names the provider of the stack identity resource.
 */
export function providerOf(kind: KindName | "StackIdentity"): pulumi.dynamic.ResourceProvider {
  if (kind === "StackIdentity") return stackIdentityProvider;
  let provider = providers.get(kind);
  if (!provider) {
    provider = {
      configure,
      check: async (olds, news) => {
        const result = await check(kind, olds, news);
        return result.failures ? { ...result, failures: forEngine(result.failures, news) } : result;
      },
      diff: (id, olds, news) => diff(kind, id, olds, news),
      create: (inputs) => create(kind, inputs),
      read: (id, props) => read(kind, id, props),
      update: (id, olds, news) => update(kind, id, olds, news),
      delete: (id, props) => remove(kind, id, props),
    };
    providers.set(kind, provider);
  }
  return provider;
}
