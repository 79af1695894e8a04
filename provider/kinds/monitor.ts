import {
  CreateMonitorSchema,
  issuesToDetails,
  type Monitor,
  type MonitorSpec,
  monitorRuleViolations,
  toMonitorSpec,
} from "../../api";
import type { Connection } from "../connection";
import { type Failure, type Kind, mapKeys, type Props, toCamel, toProperty, toSnake } from "./kind";

/** Input properties that map to the API's writable monitor fields. */
export const MONITOR_SPEC_PROPS = [
  "name",
  "type",
  "url",
  "intervalSec",
  "timeoutSec",
  "method",
  "headers",
  "body",
  "expectedStatusCodes",
  "keyword",
  "keywordCaseSensitive",
  "followRedirects",
  "channelIds",
  "tags",
] as const;

const apiBody = (inputs: Props) => mapKeys(inputs, toSnake, MONITOR_SPEC_PROPS);

function specOf(inputs: Props): MonitorSpec {
  return toMonitorSpec(apiBody(inputs) as never);
}

function camelSpec(spec: MonitorSpec): Props {
  return mapKeys(spec as unknown as Props, toCamel);
}

/** Monitors: every field PATCHable but `type`; `paused` maps to pause/resume. */
export const monitorKind: Kind<Monitor> = {
  label: "monitor",
  path: "/api/v1/monitors",
  byIdIsExtension: false,
  replaceOnChange: ["type"],

  validate(inputs, complete): Failure[] {
    const body = apiBody(inputs);
    const schema = complete ? CreateMonitorSchema : CreateMonitorSchema.partial();
    const parsed = schema.safeParse(body);
    const details = parsed.success
      ? complete
        ? monitorRuleViolations(toMonitorSpec(parsed.data as never))
        : []
      : issuesToDetails(parsed.error.issues);
    const failures = details.map((d) => ({ property: toProperty(d.field), reason: `${toProperty(d.field)}: ${d.message}` }));
    if (inputs.paused !== undefined && typeof inputs.paused !== "boolean") {
      failures.push({ property: "paused", reason: "paused: must be true or false" });
    }
    return failures;
  },

  desired: (inputs) => ({ ...camelSpec(specOf(inputs)), paused: inputs.paused === true }),

  actual: (outputs) => ({
    ...Object.fromEntries(MONITOR_SPEC_PROPS.map((p) => [p, outputs[p]])),
    paused: outputs.paused === true,
  }),

  createBody: (inputs) => apiBody(inputs),

  patchBody(inputs, changed) {
    const desired = camelSpec(specOf(inputs));
    const props = changed.filter((p) => p !== "paused" && p !== "type");
    return mapKeys(Object.fromEntries(props.map((p) => [p, desired[p]])), toSnake);
  },

  outputs(api, inputs, connection: Connection) {
    const { id: _id, ...rest } = api;
    return {
      ...mapKeys(rest as unknown as Props, toCamel),
      paused: api.status === "paused",
      endpoint: connection.baseUrl,
      ...(inputs.connection ? { connection: inputs.connection } : {}),
      ...(inputs.adopt ? { adopt: inputs.adopt } : {}),
    };
  },

  // Secret fields (headers, body) stay out: refreshed inputs are stored without encryption.
  refreshedInputs(api) {
    const { id: _id, status, health: _h, last_checked_at: _l, created_at: _c, updated_at: _u, headers: _x, body: _b, ...spec } = api;
    return { ...mapKeys(spec as unknown as Props, toCamel), paused: status === "paused" };
  },

  async afterWrite(client, api, inputs) {
    const wantPaused = inputs.paused === true;
    if (wantPaused === (api.status === "paused")) return api;
    const action = wantPaused ? "pause" : "resume";
    return (await client.request<Monitor>("POST", `/api/v1/monitors/${api.id}/${action}`)).data;
  },
};
