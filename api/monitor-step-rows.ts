import { ASSERTION_ROWS } from "./assertions";
import { type FieldTable, objectType } from "./field-table";
import { EXTRACTION_SOURCES, STEP_METHODS as METHODS } from "./monitor-steps";

const STRING = { type: "string" } as const;
const NULLABLE_STRING = { type: "string", nullable: true } as const;

/** The rows of multi-step monitors in the monitor's field table (api/monitor.ts spreads them into it). */
export const MONITOR_STEP_ROWS = {
  /** multistep monitors: the requests of the journey, in order (1..10); see "Multi-step monitors". */
  steps: {
    api: "steps",
    type: {
      type: "array",
      items: objectType(
        "MonitorStep",
        "One request of a multi-step monitor, its extractions and assertions.",
        {
          name: { ...STRING, description: "Names the step in results and errors, 1..60 characters." },
          method: { type: "string", enum: METHODS, description: "HTTP method; default GET." },
          url: { ...STRING, description: "`http(s)://…`, with `{{variables}}`." },
          headers: {
            type: "object",
            additionalProperties: STRING,
            description: "Request headers, with `{{variables}}` in values.",
          },
          body: {
            ...NULLABLE_STRING,
            description: "Request body, with `{{variables}}`; only with POST, PUT, PATCH, DELETE.",
          },
          statuses: {
            type: "array",
            items: { oneOf: [{ type: "integer" }, STRING] },
            description: 'Codes or classes that pass; default `["2xx", "3xx"]`.',
          },
          extract: {
            type: "array",
            description: "Values of the response kept as variables for later steps.",
            items: objectType(
              "StepExtraction",
              "A value of the response kept as variable `name`.",
              {
                name: { ...STRING, description: "The variable's name: later steps use `{{name}}`." },
                source: {
                  type: "string",
                  enum: EXTRACTION_SOURCES,
                  description: "`json_body`, `headers`, `text_body` (a regular expression) or `status_code`.",
                },
                property: {
                  ...NULLABLE_STRING,
                  description:
                    "The JSONPath, header name or regular expression (its first group); none for `status_code`.",
                },
                secret: { type: "boolean", description: "Masked in results, logs and errors." },
              },
              ["name", "source"],
            ),
          },
          assertions: {
            type: "array",
            items: ASSERTION_ROWS.assertions.type.items,
            description: "Checks of the response, as a monitor's `assertions`.",
          },
          cleanup: { type: "boolean", description: "Runs even after an earlier step failed (clean-up)." },
        },
        ["name", "url"],
      ),
    },
    normal: "steps",
    description:
      'multistep monitors: the requests, in order (1..10), each with `extract` and `assertions`; see "Multi-step monitors". Stored as a secret when a secret header of a step (its name is a credential) holds more than `{{variables}}` and a scheme word: a credential written as plain text.',
    default: [],
  },
  /** multistep monitors: values for `{{name}}` in the steps; secret, masked in results, logs and errors. */
  variables: {
    api: "variables",
    type: { type: "object", additionalProperties: STRING },
    secret: true,
    description: "multistep monitors: values for `{{name}}` in the steps; secret, masked in results and errors.",
    default: {},
  },
  /**
   * The fingerprints the service returned for the secret values (`variables`, secret `headers` and
   * steps' `headers`) right after the provider last wrote them, by path (`variables.<name>`,
   * `headers.<name>`, `steps[<i>].headers.<name>`): reads show fingerprints, so a different live
   * one is drift.
   */
  writtenSecrets: {
    type: { type: "object", additionalProperties: STRING },
    outputOnly: true,
    secret: true,
    description:
      "The service's fingerprints of the secret values (`variables`, secret `headers` and steps' `headers`) right after the provider last wrote them, by path (`variables.<name>`, `headers.<name>`, `steps[<i>].headers.<name>`); reads show fingerprints, never values: a different live one is drift.",
  },
} as const satisfies FieldTable;
