import { z } from "zod";
import { documentOnlyMeta, ExternalIdSchema } from "./common";
import { isNetworkType, NETWORK_ASSERTION_SOURCES } from "./monitor-network";
import { PROTOCOL_ASSERTION_SOURCES, isProtocolType } from "./monitor-protocols";
import { monitorFields } from "./monitor";
import { intervalSec, METHODS_WITH_BODY, MIN_INTERVAL_SEC } from "./monitor-fields";
import { dnsResolver, empty, f, type MonitorField, nothing } from "./monitor-type";
import { MONITOR_TYPES, type MonitorType, monitorTypeDescriptor } from "./monitor-type-registry";

/**
 * The monitor's request bodies as one server builds them: the interval floor is the server's own
 * (`minIntervalSec`), so its OpenAPI document states the bound it enforces.
 *
 * `create` and `update` are the flat schemas the server validates with; their messages are the
 * API's (see `monitorRuleViolations` for the rules across fields). `documentedCreate` says the
 * same thing as one union with a discriminator on `type`: each type's fields allowed only where
 * they apply, with the rules across fields that JSON Schema can state (`if`/`then`). It is the
 * document's body schema; test/server/monitor-variants.test.ts proves that it and the server's
 * validation accept the same bodies.
 */
export function monitorBodySchemas(minIntervalSec: number = MIN_INTERVAL_SEC) {
  const interval_sec = intervalSec(minIntervalSec);
  // Reminders no more often than checks may run. The server checks that after the schema, with
  // its other rules (all reported at once); the document states this server's floor.
  const remindAtLeast = monitorFields.remind_every_sec.unwrap().clone();
  documentOnlyMeta.add(remindAtLeast, { minimum: minIntervalSec });
  const remind_every_sec = remindAtLeast.nullable().meta(monitorFields.remind_every_sec.meta() ?? {});
  const flat = { ...monitorFields, interval_sec, remind_every_sec };
  const create = z
    .strictObject(
      Object.fromEntries(Object.entries(flat).map(([k, rule]) => [k, REQUIRED.has(k) ? rule : rule.optional()])) as {
        [K in keyof typeof flat]: z.ZodOptional<(typeof flat)[K]>;
      },
    )
    .extend({ name: flat.name, type: flat.type, interval_sec, external_id: ExternalIdSchema.optional() });
  // A PATCH does not name the type: the document states each field's shape, and the stored
  // monitor's type decides the rest (a 422 naming the field).
  const update = create
    .omit({ type: true })
    .partial()
    .extend({ url: f.url.unwrap().meta({ format: "uri" }).nullable().optional(), dns_resolver: dnsResolver() });
  const documentedCreate = z.discriminatedUnion(
    "type",
    MONITOR_TYPES.map((type) => variant(type, interval_sec, remind_every_sec)) as unknown as [
      z.ZodObject,
      ...z.ZodObject[],
    ],
  );
  return { create, update, documentedCreate };
}

const REQUIRED = new Set(["name", "type", "interval_sec"]);

/** Fields of one type or a few: `null` (or `[]`) alone unless the type's descriptor takes them. */
const OTHER_TYPES_FIELDS: Partial<Record<MonitorField, z.ZodType>> = {
  keyword: nothing,
  assertions: empty,
  ssl_expiry_days: nothing,
  dns_expected_values: empty,
  dns_resolver: nothing,
  steps: empty,
  variables: z.strictObject({}).optional(),
  grpc_service: nothing,
  ping_count: nothing,
  smtp_starttls: nothing,
  domain_expiry_days: nothing,
  script: nothing,
};

/** One type's body: its own fields, and `null` (or `[]`) alone for fields of other types. */
function variant(type: MonitorType, interval_sec: z.ZodType, remind_every_sec: z.ZodType) {
  const descriptor = monitorTypeDescriptor(type);
  const shape = {
    // Every field, optional, in the order of `monitorFields`; then those that differ.
    ...(Object.fromEntries(
      Object.entries(monitorFields).map(([k, rule]): [string, z.ZodType] => [k, rule.optional()]),
    ) as Record<MonitorField, z.ZodType>),
    name: f.name,
    type: z.literal(type),
    url: descriptor.url,
    interval_sec,
    remind_every_sec: remind_every_sec.optional(),
    ...OTHER_TYPES_FIELDS,
    // The type's own fields, in the places above (a spread keeps the order of the keys it replaces).
    ...descriptor.fields?.(),
    external_id: ExternalIdSchema.optional(),
  };
  const rules = crossFieldRules(type);
  // JSON Schema forbids an empty allOf: a type with no rule across fields (browser) has none.
  return z.strictObject(shape).meta({ title: `${type} monitor`, ...(rules.length > 0 ? { allOf: rules } : {}) });
}

/**
 * Rules between fields that JSON Schema can state, as `if`/`then`: zod cannot carry them into
 * the document. Those every type shares are here; a type's own are in its descriptor.
 */
function crossFieldRules(type: MonitorType): object[] {
  const rules: object[] = [];
  if (type !== "websocket" && type !== "udp" && type !== "browser" && !isNetworkType(type)) {
    rules.push({
      // A body only with a method that carries one (the method's default, GET, carries none);
      // a websocket monitor's body is its message and a udp monitor's its datagram.
      if: { properties: { body: { type: "string" } }, required: ["body"] },
      then: { properties: { method: { enum: METHODS_WITH_BODY } }, required: ["method"] },
    });
  }
  if (isProtocolType(type)) {
    // What each protocol's assertions may read.
    rules.push({
      properties: { assertions: { items: { properties: { source: { enum: PROTOCOL_ASSERTION_SOURCES[type] } } } } },
    });
  }
  if (isNetworkType(type)) {
    // What each network type's assertions may read.
    rules.push({
      properties: { assertions: { items: { properties: { source: { enum: NETWORK_ASSERTION_SOURCES[type] } } } } },
    });
  }
  rules.push(...(monitorTypeDescriptor(type).rules?.() ?? []));
  return rules;
}
