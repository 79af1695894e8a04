import { z } from "zod";
import {
  displayName,
  EXTERNAL_ID_FIELD,
  ExternalIdSchema,
  inWords,
  NAME_MAX,
  Timestamp,
  timestampRows,
} from "./common";
import { type FieldTable, nullableField, objectType, outputField, providerOutput, requiredField } from "./field-table";
import { IncidentSchema, IncidentUpdateSchema } from "./status-page-incidents";
import {
  COMPONENT_KEY_MAX,
  COMPONENT_RULES,
  COMPONENT_STATES,
  PASSWORD_LENGTH,
  RULE_MINUTES_MAX,
  StatusPageStructureFields,
  StoredIncidentRuleSchema,
  StoredSectionSchema,
  STATUS_PAGE_LOCALES,
} from "./status-page-structure";

/** The shortest and longest slug. */
const SLUG_LENGTH = { min: 3, max: 64 } as const;
/** The longest description of a page. */
const DESCRIPTION_MAX = 2000;

const slug = z
  .string()
  .min(SLUG_LENGTH.min, `must be ${SLUG_LENGTH.min} to ${SLUG_LENGTH.max} characters`)
  .max(SLUG_LENGTH.max, `must be ${SLUG_LENGTH.min} to ${SLUG_LENGTH.max} characters`)
  .regex(/^[a-z0-9-]+$/, "must use only a-z, 0-9 and -");
const title = displayName();
const description = z.string().max(DESCRIPTION_MAX, `must be at most ${DESCRIPTION_MAX} characters`).nullable();
const monitorIds = z.array(z.string().min(1).max(100)).max(200, "must have at most 200 monitors");

/** The body of `POST /api/v1/status-pages`. */
export const CreateStatusPageSchema = z
  .strictObject({
    slug,
    title,
    description: description.optional(),
    monitor_ids: monitorIds.optional(),
    external_id: ExternalIdSchema.optional(),
    ...StatusPageStructureFields,
  })
  .meta({ id: "CreateStatusPage" });
export type CreateStatusPage = z.infer<typeof CreateStatusPageSchema>;

/** The body of `PATCH /api/v1/status-pages/<id>` (extension). */
export const UpdateStatusPageSchema = CreateStatusPageSchema.partial().meta({ id: "UpdateStatusPage" });
export type UpdateStatusPage = z.infer<typeof UpdateStatusPageSchema>;

/** A status page as the API returns it. */
export const StatusPageSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    monitor_ids: z.array(z.string()),
    /** The client's mark (see `ExternalIdSchema`); null when none was set. */
    external_id: z.string().nullable(),
    sections: z.array(StoredSectionSchema),
    incident_rules: z.array(StoredIncidentRuleSchema),
    custom_domain: z.string().nullable(),
    /** Whether the page asks for a password (the password itself is never returned). */
    password_set: z.boolean(),
    allowed_cidrs: z.array(z.string()),
    locale: z.enum(STATUS_PAGE_LOCALES),
    logo_url: z.string().nullable(),
    brand_color: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "StatusPage" });
export type StatusPage = z.infer<typeof StatusPageSchema>;

const COMPONENT_TYPE = objectType(
  "StatusPageComponent",
  "A component: one or more monitors with a rule for its state, or a manual component.",
  {
    key: {
      type: "string",
      description: `1..${COMPONENT_KEY_MAX} of \`a-z 0-9 -\`, unique on the page: its id in the API and in incident rules.`,
    },
    name: { type: "string", description: "Name shown on the page." },
    description: { type: "string", nullable: true, description: "Optional line under the name." },
    monitors: {
      type: "array",
      items: { type: "string" },
      description: "Monitor ids (a set); none for a manual component.",
    },
    rule: {
      type: "string",
      enum: COMPONENT_RULES,
      description: `${inWords(COMPONENT_RULES, "worst")}.`,
    },
    threshold: { type: "integer", nullable: true, description: "With `response-time`: degraded above this many ms." },
  },
  ["key", "name"],
);
const SECTION_TYPE = objectType(
  "StatusPageSection",
  "A section of a status page: a heading and its components in order.",
  {
    name: { type: "string", description: "The section's heading." },
    components: { type: "array", items: COMPONENT_TYPE, description: "Its components, in order." },
  },
  ["name", "components"],
);
const INCIDENT_RULE_TYPE = objectType(
  "StatusPageIncidentRule",
  "Opens an incident when monitors stay down, resolves it when they recover.",
  {
    component: { type: "string", nullable: true, description: "The component's key (or give `tag`)." },
    tag: { type: "string", nullable: true, description: "The page's monitors with this tag (or give `component`)." },
    minutes: { type: "integer", description: `Minutes down first, 0..${RULE_MINUTES_MAX}.` },
    title: { type: "string", description: "The incident's title; `{name}` and `{minutes}` are filled in." },
    message: { type: "string", nullable: true, description: "The first update's message; same placeholders." },
  },
  ["minutes", "title"],
);

/** The status page's field table (see fields.ts). */
export const STATUS_PAGE_FIELDS = {
  /** {@link SLUG_LENGTH} characters of a-z, 0-9 and -; unique on the service. The public document is at /api/status/<slug>.json. */
  slug: requiredField(
    "slug",
    "string",
    `${SLUG_LENGTH.min}..${SLUG_LENGTH.max} of \`a-z 0-9 -\`, unique on the service; a change moves the public URL in place.`,
  ),
  /** Title shown on the page, 1..{@link NAME_MAX} characters. */
  title: requiredField(
    "title",
    "string",
    `Title shown on the page, 1..${NAME_MAX} characters, kept exactly as written; not only spaces.`,
  ),
  /** Optional text under the title. */
  description: nullableField(
    "description",
    "string",
    `Optional text under the title, at most ${DESCRIPTION_MAX} characters.`,
  ),
  /** Monitors shown on the page; a set. */
  monitorIds: {
    api: "monitor_ids",
    type: { type: "array", items: { type: "string" } },
    normal: "set",
    description: "Monitors shown on the page; a set.",
    default: [],
  },
  /** Sections of components, in order: what the page shows (see status-page-structure.ts). */
  sections: {
    api: "sections",
    type: { type: "array", items: SECTION_TYPE },
    normal: "sections",
    description:
      "Sections in order, each `{ name, components }`; a component is `{ key, name, description?, monitors?, rule?, threshold? }` with rule `worst` (default), `all-down`, `response-time` (degraded above `threshold` ms) or `manual` (state set through the API).",
    default: [],
  },
  /** Rules that open an incident when monitors stay down, and resolve it on recovery. */
  incidentRules: {
    api: "incident_rules",
    type: { type: "array", items: INCIDENT_RULE_TYPE },
    normal: "incident-rules",
    description:
      "`{ component | tag, minutes, title, message? }`: opens an incident when the component's (or tag's) monitors stay down `minutes`, resolves it on recovery; `{name}` and `{minutes}` in the texts are filled in.",
    default: [],
  },
  /** Hostname the page is also served at (point it at the server through a TLS proxy). */
  customDomain: nullableField(
    "custom_domain",
    "string",
    "Hostname the page is served at (`Host: status.example.com` gets the page at `/`); unique on the service.",
  ),
  /** Password people enter to see the page; write-only. */
  password: {
    api: "password",
    type: { type: "string", nullable: true },
    secret: true,
    description: `Password people enter to see the page (${PASSWORD_LENGTH.min}..${PASSWORD_LENGTH.max} characters); write-only, never returned. A private page is \`noindex\`.`,
    default: null,
  },
  /** Address ranges that may see the page without a password. */
  allowedCidrs: {
    api: "allowed_cidrs",
    type: { type: "array", items: { type: "string" } },
    normal: "set",
    description:
      "Address ranges (CIDR) that may see the page; others are refused, or asked for the password when one is set.",
    default: [],
  },
  /** The page's language. */
  locale: {
    api: "locale",
    type: { type: "string", enum: STATUS_PAGE_LOCALES },
    description: `The page's language: ${inWords(STATUS_PAGE_LOCALES, "en")}.`,
    default: "en",
  },
  /** Logo shown above the title. */
  logoUrl: nullableField("logo_url", "string", "An https:// URL of a logo shown above the title."),
  /** The page's accent colour. */
  brandColor: nullableField("brand_color", "string", "Accent colour `#rrggbb` (lower-case) of the page's header."),
  /** Whether the page asks for a password. */
  passwordSet: outputField("password_set", "boolean", "Whether the page asks for a password."),
  /** URL of the public status document (no key needed). */
  publicUrl: providerOutput("URL of the public status document, `GET /api/status/<slug>.json` (no key needed)."),
  /** URL of the page for people (HTML, no key needed). */
  pageUrl: providerOutput("URL of the status page people open, `GET /status/<slug>` (HTML, no key needed)."),
  ...timestampRows("page"),
  /** The stack's mark on the page, set at create (see "Interrupted deployments"). */
  externalId: EXTERNAL_ID_FIELD,
} as const satisfies FieldTable;

/** A monitor's state in the public status document: its health, `paused`, or `maintenance`. */
export const PUBLIC_MONITOR_STATES = ["up", "degraded", "down", "pending", "paused", "maintenance"] as const;

/** `GET /api/status/<slug>.json`: names and health only, never URLs, headers or ids. */
export const StatusDocumentSchema = z
  .object({
    slug: z.string(),
    title: z.string(),
    description: z.string().nullable(),
    /** `maintenance` (extension): a maintenance window is in effect and nothing is down. */
    status: z.enum(["operational", "degraded", "down", "unknown", "maintenance"]),
    updated_at: Timestamp,
    monitors: z.array(
      z.object({
        name: z.string(),
        /** `maintenance` (extension): a maintenance window covers the monitor now. */
        /** `degraded`: up, but slower than the monitor's `degraded_response_ms`. */
        status: z.enum(PUBLIC_MONITOR_STATES),
        uptime_pct_24h: z.number().nullable(),
        uptime_pct_30d: z.number().nullable(),
        last_checked_at: Timestamp.nullable(),
      }),
    ),
    /** The page's sections and their components' states, in the order declared (extension). */
    sections: z.array(
      z.object({
        name: z.string(),
        components: z.array(
          z.object({
            key: z.string(),
            name: z.string(),
            description: z.string().nullable(),
            status: z.enum(COMPONENT_STATES),
            uptime_pct_30d: z.number().nullable(),
          }),
        ),
      }),
    ),
    /** Open incidents first (newest first), then those resolved in the last 14 days (extension). */
    // The API's incident less what the public must not see (its page, post-mortem draft, rule and
    // the updates' ids and impacts): named fields, so a field added to incidents stays private.
    incidents: z.array(
      IncidentSchema.pick({
        id: true,
        title: true,
        state: true,
        components: true,
        created_at: true,
        updated_at: true,
        resolved_at: true,
      }).extend({
        updates: z.array(IncidentUpdateSchema.pick({ state: true, message: true, created_at: true })),
      }),
    ),
    /** Maintenance windows of the page's monitors, in progress or starting in the next 14 days (extension). */
    maintenance: z.array(
      z.object({ name: z.string(), starts_at: Timestamp, ends_at: Timestamp, in_progress: z.boolean() }),
    ),
  })
  .meta({ id: "StatusDocument" });
export type StatusDocument = z.infer<typeof StatusDocumentSchema>;
