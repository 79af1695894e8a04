import {
  CreateMonitorSchema,
  issuesToDetails,
  type Monitor,
  MONITOR_FIELDS,
  monitorRuleViolations,
  normalize,
  toMonitorSpec,
} from "../../api";
import type { Connection } from "../client/connection";
import { Fields, resourceOutputs } from "./fields";
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
  return written.find((h) => h && typeof h === "object" && same(normalize(MONITOR_FIELDS.headers.normal, h), normal)) ?? live;
}

type Strings = Record<string, string>;

/**
 * The outputs' `variables` and `writtenVariables`. Reads show each variable as its fingerprint, so
 * after a write the outputs keep the values the program declared (secret) and record the
 * fingerprints the answer showed. Otherwise a variable keeps its value while its live fingerprint
 * is the recorded one; one changed, added or removed outside Pulumi shows as its fingerprint (or is
 * gone), which differs from any declaration: a diff. State from before the record compares the
 * values it holds (an older server returned them), so it shows the variables as changed once and
 * the next `up` rewrites them.
 */
function variableOutputs(api: Monitor, inputs: Props, previous?: Previous): Props {
  // A server without variables (older than them) returns none: nothing to record.
  if (api.variables === undefined) return {};
  const live = api.variables as Strings;
  // No variables, nothing to record: the rule below then finds any added outside Pulumi.
  const record = (fps: Strings | undefined) => (fps && Object.keys(fps).length > 0 ? { writtenVariables: fps } : {});
  if (!previous || previous.rewrote.includes("variables")) return { variables: inputs.variables ?? live, ...record(live) };
  const written = previous.props.writtenVariables as Strings | undefined;
  const held = (previous.props.variables ?? inputs.variables ?? {}) as Strings;
  const recorded = written ?? held;
  const variables = Object.fromEntries(Object.entries(live).map(([name, fp]) => [name, recorded[name] === fp && name in held ? held[name] : fp]));
  return { variables, ...record(written) };
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
    const headers = declaredHeaders(api.headers, [inputs.headers, previous?.props.headers]);
    return { ...fields.fromApi(api), headers, ...variableOutputs(api, inputs, previous), pushUrl, paused: api.status === "paused", ...resourceOutputs(inputs, connection) };
  },

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
