import { MAINTENANCE_WINDOW_FIELDS } from "./maintenance-window";
import type { z } from "zod";
import { CHANNEL_FIELDS } from "./channel";
import type { ErrorDetail } from "./common";
import { outputOnlyApiNames } from "./fields";
import { MONITOR_FIELDS } from "./monitor";
import { STATUS_PAGE_FIELDS } from "./status-page";

/** Fields the API sets itself: sending one is an error that says so. */
export const READ_ONLY_FIELDS: ReadonlySet<string> = new Set([
  "id",
  ...outputOnlyApiNames(MONITOR_FIELDS, CHANNEL_FIELDS, STATUS_PAGE_FIELDS, MAINTENANCE_WINDOW_FIELDS),
]);

/** `["headers", "x-token"]` → `headers.x-token`; `["channel_ids", 1]` → `channel_ids[1]`. */
export function fieldPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out || "body";
}

const KIND: Record<string, string> = {
  string: "a string",
  number: "a number",
  int: "a whole number",
  boolean: "true or false",
  object: "a JSON object",
  array: "an array",
  null: "null",
};

/**
 * Turns zod issues into the API's `details`: one entry per bad field, each naming the field and
 * the rule it broke. Server (422) and provider (check failures) say the same thing.
 */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[], immutable: readonly string[] = []): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const field = fieldPath([...issue.path, key]);
        const message = immutable.includes(key)
          ? "cannot be changed; create a new resource instead"
          : READ_ONLY_FIELDS.has(key)
            ? "is read-only"
            : "is not a known field";
        details.push({ field, message });
      }
      continue;
    }
    details.push({ field: fieldPath(issue.path), message: describe(issue) });
  }
  return details;
}

function describe(issue: z.core.$ZodIssue): string {
  const custom = issue.message && !/^(Invalid|Too (small|big))/.test(issue.message);
  if (custom) return issue.message;
  switch (issue.code) {
    case "invalid_type":
      return /received undefined/.test(issue.message)
        ? "is required"
        : `must be ${KIND[issue.expected] ?? issue.expected}`;
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}`;
    case "too_small":
      return boundMessage(issue.origin, "least", issue.minimum);
    case "too_big":
      return boundMessage(issue.origin, "most", issue.maximum);
    case "invalid_key":
    case "invalid_element":
      return issue.issues[0]?.message ?? issue.message;
    case "invalid_format":
      return `must be a valid ${issue.format}`;
    default:
      return issue.message;
  }
}

/** The message of a bound: `at least`/`at most` so many items, characters, or of the number. */
function boundMessage(origin: string, side: "least" | "most", bound: unknown): string {
  if (origin === "array") return `must have at ${side} ${bound} items`;
  if (origin === "string") return `must be at ${side} ${bound} characters`;
  return `must be at ${side} ${bound}`;
}
