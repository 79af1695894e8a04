import { z } from "zod";
import {
  type Assertion,
  AssertionSchema,
  jsonPathProblem,
  normalizeAssertions,
  readProperty,
  regexProblem,
  type StoredAssertion,
  storedAssertions,
} from "./assertions";
import type { ErrorDetail } from "./common";
import {
  HEADER_NAME,
  MAX_URL_LENGTH,
  requestBody,
  requestHeaders,
  StatusCodeRuleSchema,
  URL_TOO_LONG,
} from "./headers";

/**
 * Multi-step monitors (`type: "multistep"`): a journey of HTTP requests run in order, each step's
 * `extract` naming variables that later steps use as `{{name}}` in their URL, headers and body.
 * A step marked `cleanup` runs even after a step failed. One model for the server's 422s, the
 * provider's check failures, the schema and the OpenAPI document.
 */

/** At most this many steps per monitor. */
export const MAX_STEPS = 10;
/** At most this many extractions per step. */
export const MAX_EXTRACTIONS = 20;
/** At most this many variables per monitor. */
export const MAX_VARIABLES = 50;
/** The most of each step's response body read (for extractions and assertions) and kept: 64 KiB. */
export const STEP_BODY_LIMIT_BYTES = 64 * 1024;
/** The longest value an extraction keeps. */
export const MAX_VARIABLE_CHARS = 4096;

/** Where an extraction reads its value: a JSONPath, a header, a regular expression on the body, or the status. */
export const EXTRACTION_SOURCES = ["json_body", "headers", "text_body", "status_code"] as const;
export type ExtractionSource = (typeof EXTRACTION_SOURCES)[number];

/** A variable's name, as `{{name}}` uses it. */
export const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
/** `{{name}}` in a template (spaces inside the braces allowed). */
export const VARIABLE_USE = /\{\{\s*([^{}\s]*)\s*\}\}/g;

/**
 * A step's URL, as the document states it and the server checks it: `http(s)://`, a host name
 * (its last label not a number) or an IPv4 address, with `{{variables}}` allowed in names, an
 * optional port, then anything but spaces.
 */
const STEP_URL =
  "^https?://(?:(?:[A-Za-z0-9_{}-]+\\.)*[A-Za-z_{}][A-Za-z0-9_{}-]*|(?:(?:25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9])\\.){3}(?:25[0-5]|2[0-4][0-9]|1?[0-9]?[0-9]))(?::(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5]))?(?:[/?#]\\S*)?$";
/** The methods a step may use. */
export const STEP_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"] as const;
const METHODS = STEP_METHODS;

/** The rules between an extraction's fields, as `[field, message]`. */
export function extractionProblems(e: { source: ExtractionSource; property?: string | null }): [string, string][] {
  const property = e.property ?? null;
  if (e.source === "status_code")
    return property === null ? [] : [["property", "is only allowed for json_body, headers and text_body extractions"]];
  if (property === null)
    return [
      [
        "property",
        `is required for ${e.source} extractions (${e.source === "json_body" ? "a JSONPath" : e.source === "headers" ? "the header name" : "a regular expression"})`,
      ],
    ];
  const why =
    e.source === "json_body"
      ? jsonPathProblem(property)
      : e.source === "headers"
        ? HEADER_NAME.test(property)
          ? undefined
          : "must be a valid header name"
        : regexProblem(property);
  return why ? [["property", why]] : [];
}

/** One extraction: a value of the step's response kept as variable `name`. */
export const ExtractionSchema = z
  .strictObject({
    /** The variable's name (letters, digits, `_`; not starting with a digit): later steps use `{{name}}`. */
    name: z
      .string()
      .regex(VARIABLE_NAME, "must be letters, digits and _, not starting with a digit, at most 64 characters"),
    /** `json_body` (a JSONPath), `headers` (a header name), `text_body` (a regular expression: its first group, or the match), `status_code`. */
    source: z.enum(EXTRACTION_SOURCES),
    /** The JSONPath, header name or regular expression; none for `status_code`. */
    property: readProperty(),
    /** Masked (`****`) in results, logs and errors, like the monitor's `variables`. */
    secret: z.boolean().optional(),
  })
  .superRefine((e, ctx) => {
    for (const [path, message] of extractionProblems(e)) ctx.addIssue({ code: "custom", path: [path], message });
  })
  .meta({
    id: "StepExtraction",
    // The rules JSON Schema can state: a property for every source but the status, a header name for headers.
    allOf: [
      {
        if: { properties: { source: { const: "status_code" } } },
        then: { properties: { property: { type: "null" } } },
        else: { properties: { property: { type: "string" } }, required: ["property"] },
      },
      {
        if: { properties: { source: { const: "headers" } } },
        then: { properties: { property: { pattern: HEADER_NAME.source } } },
      },
    ],
  });

/** One step of a multi-step monitor. */
export const MonitorStepSchema = z
  .strictObject({
    /** Names the step in results and errors, 1..60 characters. */
    name: z.string().min(1, "must not be empty").max(60, "must be at most 60 characters"),
    /** HTTP method; default GET. */
    method: z.enum(METHODS).optional(),
    /** `http(s)://…`, with `{{variables}}`. */
    url: z.string().min(1, "must not be empty").max(MAX_URL_LENGTH, URL_TOO_LONG).meta({ pattern: STEP_URL }),
    /** Request headers, with `{{variables}}` in values; at most 50. */
    headers: requestHeaders(
      "Request headers, with `{{variables}}` in values; at most 50. A secret header (its name is a credential, as in a monitor's `headers`) is write-only: reads show its fingerprint, and a PATCH that sends it back keeps the value.",
    ).optional(),
    /** Request body, with `{{variables}}`; only with POST, PUT, PATCH, DELETE. */
    body: requestBody().nullable().optional(),
    /** Codes or classes that count as passed; default `["2xx", "3xx"]`. */
    statuses: z.array(StatusCodeRuleSchema).min(1, "must list at least one code or class").max(50).optional(),
    /** Values of the response kept as variables for later steps, in order. */
    extract: z
      .array(ExtractionSchema)
      .max(MAX_EXTRACTIONS, `must have at most ${MAX_EXTRACTIONS} extractions`)
      .optional(),
    /** Checks of the response, as a monitor's `assertions`. */
    assertions: z.array(AssertionSchema).max(20, "must have at most 20 assertions").optional(),
    /** Runs even after an earlier step failed (clean-up); default false. */
    cleanup: z.boolean().optional(),
  })
  .meta({
    id: "MonitorStep",
    // A body only with a method that carries one (the default, GET, carries none).
    allOf: [
      {
        if: { properties: { body: { type: "string" } }, required: ["body"] },
        then: { properties: { method: { enum: ["POST", "PUT", "PATCH", "DELETE"] } }, required: ["method"] },
      },
    ],
  });

/** An extraction as a program declares it. */
export interface StepExtraction {
  /** The variable's name: later steps use `{{name}}`. */
  name: string;
  /** `json_body` (a JSONPath), `headers` (a header name), `text_body` (a regular expression: its first group, or the match), `status_code`. */
  source: ExtractionSource;
  /** The JSONPath, header name or regular expression; none for `status_code`. */
  property?: string | null;
  /** Masked (`****`) in results, logs and errors. */
  secret?: boolean;
}

/** A step of a multi-step monitor as a program declares it; left-out fields take their defaults. */
export interface MonitorStep {
  /** Names the step in results and errors, 1..60 characters. */
  name: string;
  /** HTTP method; default GET. */
  method?: (typeof METHODS)[number];
  /** `http(s)://…`, with `{{variables}}`. */
  url: string;
  /** Request headers, with `{{variables}}` in values. */
  headers?: Record<string, string>;
  /** Request body, with `{{variables}}`; only with POST, PUT, PATCH, DELETE. */
  body?: string | null;
  /** Codes or classes that pass; default `["2xx", "3xx"]`. */
  statuses?: (number | string)[];
  /** Values of the response kept as variables for later steps, in order. */
  extract?: StepExtraction[];
  /** Checks of the response, as a monitor's `assertions`. */
  assertions?: Assertion[];
  /** Runs even after an earlier step failed (clean-up); default false. */
  cleanup?: boolean;
}

/** An extraction as stored: every field present. */
export interface StoredExtraction {
  name: string;
  source: ExtractionSource;
  property: string | null;
  secret: boolean;
}

/** A step as stored and returned: defaults filled in. */
export interface StoredStep {
  name: string;
  method: (typeof METHODS)[number];
  url: string;
  headers: Record<string, string>;
  body: string | null;
  statuses: (number | string)[];
  extract: StoredExtraction[];
  assertions: StoredAssertion[];
  cleanup: boolean;
}

/** The writable fields of multi-step monitors. */
export const monitorStepFields = {
  /** multistep monitors: the requests, in order (1..10). */
  steps: z
    .array(MonitorStepSchema)
    .max(MAX_STEPS, `must have at most ${MAX_STEPS} steps`)
    .meta({
      description: `multistep monitors: the requests, in order. Limits: at most ${MAX_STEPS} steps; the whole run within the monitor's timeout_sec (clean-up steps get at least 1 s more); each response's body read and kept up to ${STEP_BODY_LIMIT_BYTES} bytes.`,
    }),
  /** multistep monitors: values for `{{name}}` in the steps, secret (masked in results, logs and errors). */
  variables: z
    .record(
      z.string().regex(VARIABLE_NAME, "must be letters, digits and _, not starting with a digit"),
      z.string().max(MAX_VARIABLE_CHARS, `must be at most ${MAX_VARIABLE_CHARS} characters`),
    )
    .refine((v) => Object.keys(v).length <= MAX_VARIABLES, `must have at most ${MAX_VARIABLES} variables`)
    .meta({
      description:
        "multistep and browser monitors: values for `{{name}}` in the steps, or the script's `process.env`. Write-only: reads show each value's fingerprint; masked in every spelling in results, logs and errors.",
    }),
};

/** A step as the API returns it: every field present, defaults filled in. */
export const StoredStepSchema = z
  .object({
    name: z.string(),
    method: z.enum(METHODS),
    url: z.string(),
    headers: z.record(z.string(), z.string()).meta({
      description:
        "Request headers, names lower-cased; a secret header's value (as in a monitor's `headers`) reads as its fingerprint `hmac-sha256:<64 hex>`.",
    }),
    body: z.string().nullable(),
    statuses: z.array(z.union([z.int(), z.string()])),
    extract: z.array(
      z.object({
        name: z.string(),
        source: z.enum(EXTRACTION_SOURCES),
        property: z.string().nullable(),
        secret: z.boolean(),
      }),
    ),
    assertions: storedAssertions(),
    cleanup: z.boolean(),
  })
  .meta({ id: "StoredMonitorStep" });

/** The read schema of these fields (absent from servers without multi-step monitors). */
export const monitorStepRead = {
  /** multistep monitors: the steps, defaults filled in. */
  steps: z.array(StoredStepSchema).optional(),
  /**
   * multistep and browser monitors: the variables' names, each value write-only: a read shows
   * `hmac-sha256:<hex>`, an HMAC under the server's secret key of the monitor id, the name and the
   * value, which changes when the value changes and cannot be used to test guesses offline.
   */
  variables: z.record(z.string(), z.string()).optional().meta({
    description:
      "multistep and browser monitors: the variables, write-only. Each value reads as its fingerprint, `hmac-sha256:<64 hex>`: HMAC-SHA256, under a key derived from the server's secret key file, of the monitor id, the variable's name and its value. It changes when the value changes and cannot be used to test guesses offline; a PATCH that sends a variable's fingerprint back keeps its value.",
  }),
};

/** As the server stores and returns them. */
export interface MonitorStepSpec {
  steps: StoredStep[];
  variables: Record<string, string>;
}

/** Defaults (monitors stored before these fields read so too). */
export const MONITOR_STEP_DEFAULTS: Readonly<MonitorStepSpec> = Object.freeze({ steps: [], variables: {} });

/** A list of steps in the form the server stores: defaults filled in, assertions normalized. */
export function normalizeSteps(list: unknown): unknown {
  if (!Array.isArray(list)) return list;
  return list.map((s: unknown) => {
    if (!s || typeof s !== "object") return s;
    const step = s as Record<string, unknown>;
    const headers =
      step.headers && typeof step.headers === "object"
        ? Object.fromEntries(Object.entries(step.headers).map(([k, v]) => [k.toLowerCase(), v]))
        : {};
    const extract = Array.isArray(step.extract)
      ? step.extract.map((e: Record<string, unknown>) => ({
          name: e.name,
          source: e.source,
          property: e.property ?? null,
          secret: e.secret ?? false,
        }))
      : [];
    return {
      name: step.name,
      method: step.method ?? "GET",
      url: step.url,
      headers,
      body: step.body ?? null,
      statuses: step.statuses ?? ["2xx", "3xx"],
      extract,
      assertions: normalizeAssertions(step.assertions ?? []),
      cleanup: step.cleanup ?? false,
    };
  });
}

/** The names `{{…}}` uses in `text`, in order. */
export function variablesUsed(text: string | null): string[] {
  return text === null ? [] : [...text.matchAll(VARIABLE_USE)].map((m) => m[1] as string);
}

/**
 * Rules of these fields on the whole monitor: steps only (and at least one) for multistep
 * monitors; each `{{name}}` defined by `variables` or an earlier step's extraction; a body only
 * with a method that carries one; `http(s)://` URLs.
 */
export function stepViolations(m: MonitorStepSpec & { type: string }): ErrorDetail[] {
  const out: ErrorDetail[] = [];
  if (m.type !== "multistep") {
    if (m.steps.length > 0)
      out.push({ field: "steps", message: `is only allowed for multistep monitors, not ${m.type}` });
    if (Object.keys(m.variables).length > 0 && m.type !== "browser")
      out.push({ field: "variables", message: `is only allowed for multistep and browser monitors, not ${m.type}` });
    return out;
  }
  if (m.steps.length === 0) out.push({ field: "steps", message: "must list at least one step for multistep monitors" });
  const known = new Set(Object.keys(m.variables));
  m.steps.forEach((step, i) => {
    const at = `steps[${i}]`;
    const uses: [string, string | null][] = [
      ["url", step.url],
      ["body", step.body],
      ...Object.entries(step.headers).map(([k, v]): [string, string] => [`headers.${k}`, v]),
    ];
    for (const [field, text] of uses) {
      for (const name of variablesUsed(text)) {
        if (!known.has(name))
          out.push({
            field: `${at}.${field}`,
            message: `step "${step.name}" uses {{${name}}}, which neither variables nor an earlier step's extract defines`,
          });
      }
    }
    if (!new RegExp(STEP_URL).test(step.url))
      out.push({
        field: `${at}.url`,
        message: "must be http:// or https://, a host name or IPv4 address (a port, a path), with {{variables}}",
      });
    if (step.body !== null && !["POST", "PUT", "PATCH", "DELETE"].includes(step.method)) {
      out.push({
        field: `${at}.body`,
        message: `is not allowed with method ${step.method}; use one of POST, PUT, PATCH, DELETE`,
      });
    }
    for (const e of step.extract) known.add(e.name);
  });
  return out;
}
