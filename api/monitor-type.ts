import { z } from "zod";
import type { ErrorDetail } from "./common";
import { type MONITOR_FIELD_ROWS, monitorFieldRules, type MonitorFieldValues } from "./monitor-fields";
import { networkAssertionViolations, networkUrlProblem, type NetworkType } from "./monitor-network";

/** One monitor type in the README's table: its URL, the properties of its own, and when it is up. */
export interface MonitorTypeDoc {
  /** The `url` it takes, in words. */
  url: string;
  /**
   * Properties (the `Monitor` resource's) it adds to or reads beyond the common ones (`intervalSec`,
   * `timeoutSec`, …). A property that some type lists and this one does not is no property of this
   * type: its state leaves it out (api/monitor-types/applies.ts).
   */
  fields: readonly (keyof typeof MONITOR_FIELD_ROWS)[];
  /** When a check of it passes. */
  up: string;
}

/** A field of a monitor's create body but `type`. */
export type MonitorField = keyof typeof monitorFieldRules;

/**
 * Everything `api/` says of one monitor type, in one file (`api/monitor-types/<type>.ts`, which
 * exports it as `<type>`), as the server's checker has one module per type: where it stands in
 * the lists of types, the `url` it takes, the fields of its own in the document's body union, the
 * rules across fields JSON Schema states for it, and its row of the README's table.
 * `api/monitor-types/index.ts` lists the folder's files (`npm run build` writes it), and the
 * type's name comes from there: `MONITOR_TYPES`, the `type` enum and the server's registry, which
 * fails to compile without the type's checker module.
 *
 * A descriptor is typed by the fields (`monitorFieldRules`, `MonitorFieldValues`), never by the
 * list of types, so the list can be derived from the descriptors.
 */
export interface MonitorTypeDescriptor {
  /**
   * Where it stands in every list of the types (the `type` enum, the document's body union, the
   * README's table): ascending; a new type takes the number after the highest.
   */
  order: number;
  /** The `url` it takes in the document's body union (`nothing` for a type without one). */
  url: z.ZodType;
  /**
   * Its fields that differ from every type's: those of its own (which other types take only as
   * `null` or `[]`), and the common ones it does not take. A new schema at each call.
   */
  fields?: () => Partial<Record<MonitorField, z.ZodType>>;
  /** Its rules across fields, as JSON Schema `if`/`then` (after the rules every type shares). */
  rules?: () => object[];
  /** Why `url` (`null`: none) is not one this type takes, or undefined: the server's check. */
  checkUrl: (url: string | null) => string | undefined;
  /** Its own rules, judged by the server on a monitor of this type after defaults. */
  violations?: (m: MonitorFieldValues) => ErrorDetail[];
  /** Its row of the README's "Monitor types" table. */
  doc: MonitorTypeDoc;
}

/** The fields themselves: descriptors narrow them. */
export const f = monitorFieldRules;
/** A field another type has: absent or `null` only. */
export const nothing = z.null().optional();
/** A list another type has: absent or empty only. */
export const empty = z.array(z.never()).max(0).optional();

/** `checkUrl` of a type without a URL: `why` says where its requests go instead. */
export function noUrl(type: string, why: string): (url: string | null) => string | undefined {
  return (url) => (url === null ? undefined : `is not allowed for ${type} monitors (${why})`);
}

/** `checkUrl` of a type that needs a URL, `check` judging it. */
export function urlRequired(
  type: string,
  check: (url: string) => string | undefined,
): (url: string | null) => string | undefined {
  return (url) => (url === null ? `is required for ${type} monitors` : check(url));
}

/**
 * What the network types (ping, smtp, domain) share: no body, the assertions `type` answers, and
 * the fields `own` (each optional); the url check and the assertions' rules; the README's row
 * `doc`, which lists `assertions` after the properties it names.
 */
export function networkType<const Props extends MonitorTypeDoc["fields"]>(
  type: NetworkType,
  own: readonly MonitorField[],
  doc: Omit<MonitorTypeDoc, "fields"> & { fields: Props },
): Pick<MonitorTypeDescriptor, "fields" | "checkUrl" | "violations"> & {
  doc: Omit<MonitorTypeDoc, "fields"> & { fields: (Props[number] | "assertions")[] };
} {
  return {
    fields: () => ({
      body: nothing,
      assertions: f.assertions.optional(),
      ...Object.fromEntries(own.map((field) => [field, f[field].optional()])),
    }),
    checkUrl: urlRequired(type, (url) => networkUrlProblem(type, url)),
    violations: (m) => networkAssertionViolations(type, m),
    doc: { ...doc, fields: [...doc.fields, "assertions"] },
  };
}

/** A host of a URL with a non-special scheme, as WHATWG URL parses it (no forbidden code points). */
export const HOST = "[A-Za-z0-9._~!$&'()*+,;=-]+";
/** A port, 0..65535. */
export const PORT = "(?:[0-9]{1,4}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])";

/** A `url` of the pattern `source`, with the message a refusal gives. */
export function urlMatching(source: RegExp | string, message: string): z.ZodType {
  return f.url
    .unwrap()
    .regex(typeof source === "string" ? new RegExp(source) : source, message)
    .meta({ format: "uri" });
}

/** `dns_resolver`: an IP address, with a port or without (the update body and dns monitors). */
export function dnsResolver() {
  const withPort = `^(?:(?:[0-9]{1,3}\\.){3}[0-9]{1,3}|\\[[0-9A-Fa-f:.]+\\]):${PORT}$`;
  return z
    .string()
    .max(100)
    .meta({ anyOf: [{ format: "ipv4" }, { format: "ipv6" }, { pattern: withPort }] })
    .nullable()
    .optional();
}
