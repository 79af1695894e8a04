import {
  CreateMonitorSchema,
  isSecretHeader,
  issuesToDetails,
  type Monitor,
  MONITOR_FIELDS,
  monitorRuleViolations,
  normalize,
  toMonitorSpec,
} from "../../api";
import type { Connection } from "../client/connection";
import { Fields, resourceOutputs } from "./fields";
import { MONITOR_STATE_LEAVES_OUT, monitorState } from "./monitor-state";
import type { Kind, Previous } from "./kind";
import { type Failure, type Props, same } from "./values";

const fields = new Fields(MONITOR_FIELDS);

/** The comparable form: the monitor the server would store, by API name, plus `paused`. */
function comparable(props: Props): Props {
  return { ...toMonitorSpec(fields.toApi(props) as never), paused: props.paused === true };
}

/**
 * The live headers as the program wrote them: the service lower-cases names, and a refresh records
 * the headers output as the input to compare with, so a name written `X-Token` must stay so, or
 * every later diff would list the headers as changed.
 */
function declaredHeaders(live: Record<string, string>, written: readonly unknown[]): unknown {
  const normal = normalize(MONITOR_FIELDS.headers.normal, live);
  return (
    written.find((h) => h && typeof h === "object" && same(normalize(MONITOR_FIELDS.headers.normal, h), normal)) ?? live
  );
}

type Strings = Record<string, string>;
type Steps = { headers?: Strings }[];

/** A header's value by name, whatever its case (the service lower-cases names). */
const headerOf = (headers: unknown, name: string): string | undefined =>
  headers && typeof headers === "object"
    ? (Object.entries(headers as Strings).find(([n]) => n.toLowerCase() === name)?.[1] as string | undefined)
    : undefined;

/**
 * The values reads show as fingerprints, by path: `variables.<name>`, `headers.<name>` (a secret
 * header, `isSecretHeader`) and `steps[<i>].headers.<name>`; `property` is the input property
 * that holds it, `of` finds it in a monitor's properties.
 */
function secretPaths(
  api: Monitor,
): { path: string; property: string; live: string; of: (props: Props) => string | undefined }[] {
  const out: ReturnType<typeof secretPaths> = [];
  for (const [name, live] of Object.entries((api.variables ?? {}) as Strings)) {
    out.push({
      path: `variables.${name}`,
      property: "variables",
      live,
      of: (p) => (p.variables as Strings | undefined)?.[name],
    });
  }
  for (const [name, live] of Object.entries(api.headers ?? {})) {
    if (isSecretHeader(name))
      out.push({ path: `headers.${name}`, property: "headers", live, of: (p) => headerOf(p.headers, name) });
  }
  ((api.steps ?? []) as Steps).forEach((step, i) => {
    for (const [name, live] of Object.entries(step.headers ?? {})) {
      if (isSecretHeader(name))
        out.push({
          path: `steps[${i}].headers.${name}`,
          property: "steps",
          live,
          of: (p) => headerOf((p.steps as Steps | undefined)?.[i]?.headers, name),
        });
    }
  });
  return out;
}

/**
 * The live monitor with its secrets' values restored, and `writtenSecrets`. Reads show secret
 * variables and headers as fingerprints, so after a write the outputs keep the values the program
 * declared and record the fingerprints the answer showed. Otherwise a value is kept while its live
 * fingerprint is the recorded one; one changed or added outside Pulumi stays its fingerprint (one
 * removed is gone), which differs from any declaration: a diff. State from before the record
 * compares the values it holds (an older server returned them), so it shows them as changed once
 * and the next `up` rewrites them.
 */
function restoredSecrets(api: Monitor, inputs: Props, previous?: Previous): { api: Monitor; written: Props } {
  const prior = (previous?.props.writtenSecrets ?? {}) as Strings;
  // State recorded before headers were: its `writtenVariables` are the variables' paths.
  const legacy = Object.fromEntries(
    Object.entries((previous?.props.writtenVariables ?? {}) as Strings).map(([n, fp]) => [`variables.${n}`, fp]),
  );
  const recorded: Strings = { ...legacy, ...prior };
  const record: Strings = {};
  const values = new Map<string, string>();
  for (const { path, property, live, of } of secretPaths(api)) {
    if (!previous || previous.rewrote.includes(property)) {
      values.set(path, of(inputs) ?? live);
      record[path] = live;
      continue;
    }
    const held = of(previous.props) ?? of(inputs);
    const was = recorded[path] ?? held;
    values.set(path, was === live && held !== undefined ? held : live);
    if (recorded[path] !== undefined) record[path] = recorded[path];
  }
  if (values.size === 0) return { api, written: {} };
  const restore = (headers: Strings, prefix: string) =>
    Object.fromEntries(Object.entries(headers).map(([n, v]) => [n, values.get(`${prefix}${n}`) ?? v]));
  const restored = {
    ...api,
    ...(api.variables ? { variables: restore(api.variables as Strings, "variables.") } : {}),
    ...(api.headers ? { headers: restore(api.headers, "headers.") } : {}),
    ...(api.steps
      ? {
          steps: (api.steps as Steps).map((step, i) =>
            step.headers ? { ...step, headers: restore(step.headers, `steps[${i}].headers.`) } : step,
          ),
        }
      : {}),
  } as Monitor;
  return { api: restored, written: Object.keys(record).length > 0 ? { writtenSecrets: record } : {} };
}

/** Monitors: every field PATCHable but `type`; `paused` maps to pause/resume. */
export const monitorKind: Kind<Monitor> = {
  label: "monitor",
  path: "/api/v1/monitors",
  byIdIsExtension: false,
  fields,
  replaceOnChange: fields.replaceOnChange(),

  validate(inputs, complete): Failure[] {
    const schema = complete ? CreateMonitorSchema : CreateMonitorSchema.partial();
    const parsed = schema.safeParse(fields.toApi(inputs));
    const details = parsed.success
      ? complete
        ? monitorRuleViolations(toMonitorSpec(parsed.data as never))
        : []
      : issuesToDetails(parsed.error.issues);
    const failures = fields.failures(details);
    if (inputs.paused !== undefined && typeof inputs.paused !== "boolean") {
      failures.push({ property: "paused", reason: "paused: must be true or false" });
    }
    return failures;
  },

  desired: (inputs) => comparable(inputs),

  actual: (outputs) => comparable(outputs),

  propertyOf: (field) => fields.propertyOf(field),

  createBody: (inputs) => fields.toApi(inputs),

  patchBody: (inputs, changed) => fields.patch(comparable(inputs), changed),

  outputs(api, inputs, connection: Connection, previous) {
    // The server shows a push URL once (it keeps a digest): the state keeps it from creation on.
    const pushUrl = api.push_url ?? previous?.props.pushUrl ?? null;
    const { api: live, written } = restoredSecrets(api, inputs, previous);
    const headers = declaredHeaders(live.headers, [inputs.headers, previous?.props.headers]);
    return {
      ...fields.fromApi(live),
      headers,
      ...written,
      pushUrl,
      paused: api.status === "paused",
      ...resourceOutputs(inputs, connection),
    };
  },

  state: monitorState,

  stateLeavesOut: MONITOR_STATE_LEAVES_OUT,

  refreshedInputs: (api) => ({ ...fields.fromApi(api, true), paused: api.status === "paused" }),

  async afterWrite(client, api, inputs) {
    const wantPaused = inputs.paused === true;
    if (wantPaused === (api.status === "paused")) return api;
    const action = wantPaused ? "pause" : "resume";
    // Pausing a paused monitor is a no-op, so a lost answer is safe to retry.
    return (await client.request<Monitor>("POST", `/api/v1/monitors/${api.id}/${action}`, { idempotent: true })).data;
  },

  // Without an Idempotency-Key: the answer holds a secret the server must not store.
  async afterCreate(client, api) {
    if (api.type !== "heartbeat") return api;
    const issued = await client.request<{ push_url: string }>("POST", `/api/v1/monitors/${api.id}/push-token`);
    return { ...api, push_url: issued.data.push_url };
  },
};
