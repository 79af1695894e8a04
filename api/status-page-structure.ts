import { z } from "zod";
import { type ErrorDetail, NAME_MAX, TAG_MAX } from "./common";

/**
 * What a status page shows and how: sections of components (each one or more monitors with a
 * rule for its state, or a manual component whose state people set through the API), the rules
 * that open incidents, and who may see the page where. Nested keys are single words, so that a
 * program writes them as the API does in every language.
 */

/** How a component's state follows its monitors, or `manual` (set through the API). */
export const COMPONENT_RULES = ["worst", "all-down", "response-time", "manual"] as const;
export type ComponentRule = (typeof COMPONENT_RULES)[number];

/** A component's state, as the page shows it. */
export const COMPONENT_STATES = ["operational", "degraded", "down", "maintenance", "unknown"] as const;
export type ComponentState = (typeof COMPONENT_STATES)[number];

/** The states a person may give a manual component (`unknown` is the service's word for "no checks yet"). */
export const MANUAL_STATES = ["operational", "degraded", "down", "maintenance"] as const;

/** Languages a page speaks. */
export const STATUS_PAGE_LOCALES = ["en", "de", "fr", "es", "ja"] as const;
export type StatusPageLocale = (typeof STATUS_PAGE_LOCALES)[number];

/** At most this many components on a page, over all its sections. */
export const MAX_COMPONENTS = 100;

/** The longest component key. */
export const COMPONENT_KEY_MAX = 40;
/** A component's key: 1..{@link COMPONENT_KEY_MAX} of `a-z 0-9 -`, starting with a letter or digit. */
export const COMPONENT_KEY = new RegExp(`^[a-z0-9][a-z0-9-]{0,${COMPONENT_KEY_MAX - 1}}$`);
/** The longest an incident rule waits for its monitors to stay down: a day, in minutes. */
export const RULE_MINUTES_MAX = 1440;
/** The shortest and longest page password. */
export const PASSWORD_LENGTH = { min: 8, max: 200 } as const;

/** A section's or component's name, or an incident rule's title: 1..{@link NAME_MAX} characters, trimmed. */
export const structureName = z
  .string()
  .trim()
  .min(1, `must be 1 to ${NAME_MAX} characters, not only spaces`)
  .max(NAME_MAX, `must be 1 to ${NAME_MAX} characters`);

/** One component as written. */
export const ComponentSchema = z
  .strictObject({
    /** 1..{@link COMPONENT_KEY_MAX} of `a-z 0-9 -`, unique on the page: the component's id in the API (`…/components/<key>`) and in incident rules. */
    key: z
      .string()
      .regex(COMPONENT_KEY, `must be 1 to ${COMPONENT_KEY_MAX} of a-z, 0-9 and -, starting with a letter or digit`),
    /** Name shown on the page, independent of the monitors' names. */
    name: structureName,
    /** Optional line under the name. */
    description: z.string().max(500, "must be at most 500 characters").nullable().optional(),
    /** Monitor ids (a set; none for a manual component). */
    monitors: z.array(z.string().min(1).max(100)).max(50, "must have at most 50 monitors").optional(),
    /** `worst` (default): the worst of the monitors; `all-down`: down only when all are; `response-time`: degraded above `threshold`; `manual`. */
    rule: z.enum(COMPONENT_RULES).optional(),
    /** With `response-time`: degraded when a monitor's last response took longer than this many ms. */
    threshold: z
      .int("must be a whole number of milliseconds")
      .min(1, "must be between 1 and 60000")
      .max(60_000, "must be between 1 and 60000")
      .nullable()
      .optional(),
  })
  .meta({ id: "StatusPageComponent" });

/** A section: a heading and its components, in the order declared. */
export const SectionSchema = z
  .strictObject({
    name: structureName,
    components: z
      .array(ComponentSchema)
      .min(1, "must have at least 1 component")
      .max(MAX_COMPONENTS, `must have at most ${MAX_COMPONENTS} components`),
  })
  .meta({ id: "StatusPageSection" });

/** A rule that opens an incident when a component's (or a tag's) monitors stay down, and resolves it on recovery. */
export const IncidentRuleSchema = z
  .strictObject({
    /** The component's key; or give `tag`. */
    component: z.string().regex(COMPONENT_KEY, "must be the key of a component of the page").nullable().optional(),
    /** The monitors of the page with this tag; or give `component`. */
    tag: z.string().min(1).max(TAG_MAX).nullable().optional(),
    /** Minutes the monitors must stay down first, 0..{@link RULE_MINUTES_MAX} (0: at once, after the monitors' own confirmations). */
    minutes: z
      .int("must be a whole number of minutes")
      .min(0, `must be between 0 and ${RULE_MINUTES_MAX}`)
      .max(RULE_MINUTES_MAX, `must be between 0 and ${RULE_MINUTES_MAX}`),
    /** The incident's title; `{name}` is the component's name (or the tag), `{minutes}` the rule's minutes. */
    title: structureName,
    /** The first update's message, same placeholders; default: a sentence naming what is down. */
    message: z.string().max(2000, "must be at most 2000 characters").nullable().optional(),
  })
  .meta({ id: "StatusPageIncidentRule" });

/** A hostname the page is served at (`status.example.com`), lower-case. */
export const CustomDomainSchema = z
  .string()
  .max(253, "must be at most 253 characters")
  .regex(
    /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/,
    "must be a lower-case hostname such as status.example.com",
  )
  .nullable();

/** An IPv4 or IPv6 address range in CIDR notation. */
export const CidrSchema = z
  .string()
  .max(50, "must be an address range such as 203.0.113.0/24")
  // The pattern states the form in the OpenAPI document; the refinement checks what it cannot.
  .regex(
    new RegExp(`${z.regexes.cidrv4.source}|${z.regexes.cidrv6.source}`),
    "must be an address range such as 203.0.113.0/24",
  )
  .refine(
    (v) => z.cidrv4().safeParse(v).success || z.cidrv6().safeParse(v).success,
    "must be an address range such as 203.0.113.0/24",
  );

/** The structure fields of a page's create and update bodies (all optional). */
export const StatusPageStructureFields = {
  sections: z.array(SectionSchema).max(20, "must have at most 20 sections").optional(),
  incident_rules: z.array(IncidentRuleSchema).max(50, "must have at most 50 rules").optional(),
  custom_domain: CustomDomainSchema.optional(),
  /** Write-only: reads return `password_set`. */
  password: z
    .string()
    .min(PASSWORD_LENGTH.min, `must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters`)
    .max(PASSWORD_LENGTH.max, `must be ${PASSWORD_LENGTH.min} to ${PASSWORD_LENGTH.max} characters`)
    .nullable()
    .optional(),
  allowed_cidrs: z.array(CidrSchema).max(50, "must have at most 50 ranges").optional(),
  locale: z.enum(STATUS_PAGE_LOCALES).optional(),
  logo_url: z
    .url({ protocol: /^https$/, error: "must be an https:// URL" })
    .max(2000)
    .nullable()
    .optional(),
  brand_color: z
    .string()
    .regex(/^#[0-9a-f]{6}$/, "must be a colour such as #0969da (lower-case)")
    .nullable()
    .optional(),
};

/** A component as stored and returned: every field present. */
export interface StoredComponent {
  key: string;
  name: string;
  description: string | null;
  monitors: string[];
  rule: ComponentRule;
  threshold: number | null;
}

/** A section as stored and returned. */
export interface StoredSection {
  name: string;
  components: StoredComponent[];
}

/** An incident rule as stored and returned. */
export interface StoredIncidentRule {
  component: string | null;
  tag: string | null;
  minutes: number;
  title: string;
  message: string | null;
}

/** Read shapes of the structure (every field present). */
export const StoredComponentSchema = z.object({
  key: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  monitors: z.array(z.string()),
  rule: z.enum(COMPONENT_RULES),
  threshold: z.int().nullable(),
});
export const StoredSectionSchema = z.object({ name: z.string(), components: z.array(StoredComponentSchema) });
export const StoredIncidentRuleSchema = z.object({
  component: z.string().nullable(),
  tag: z.string().nullable(),
  minutes: z.int(),
  title: z.string(),
  message: z.string().nullable(),
});

const sortedUnique = (list: readonly string[]): string[] => [...new Set(list)].sort();

/** Sections with every default filled in (the stored form, and the provider's comparable form). */
export function normalizeSections(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((s: { name?: unknown; components?: unknown }) => ({
    name: s?.name,
    components: Array.isArray(s?.components)
      ? s.components.map((c: Partial<StoredComponent>) => ({
          key: c?.key,
          name: c?.name,
          description: c?.description ?? null,
          monitors: Array.isArray(c?.monitors) ? sortedUnique(c.monitors) : (c?.monitors ?? []),
          rule: c?.rule ?? "worst",
          threshold: c?.threshold ?? null,
        }))
      : s?.components,
  }));
}

/** Incident rules with every default filled in. */
export function normalizeIncidentRules(value: unknown): unknown {
  if (!Array.isArray(value)) return value;
  return value.map((r: Partial<StoredIncidentRule>) => ({
    component: r?.component ?? null,
    tag: r?.tag ?? null,
    minutes: r?.minutes,
    title: r?.title,
    message: r?.message ?? null,
  }));
}

/** The rules across fields that one field's schema cannot say: keys unique, rules per component kind, rules naming components. */
export function structureIssues(
  sections: readonly StoredSection[],
  rules: readonly StoredIncidentRule[],
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  const keys = new Set<string>();
  let count = 0;
  sections.forEach((s, i) =>
    s.components.forEach((c, j) => {
      const at = `sections[${i}].components[${j}]`;
      count++;
      if (keys.has(c.key))
        details.push({ field: `${at}.key`, message: `"${c.key}" is used by another component of the page` });
      keys.add(c.key);
      if (c.rule === "manual" && c.monitors.length)
        details.push({ field: `${at}.monitors`, message: "must be empty for a manual component" });
      if (c.rule !== "manual" && !c.monitors.length)
        details.push({ field: `${at}.monitors`, message: `must name at least 1 monitor (rule ${c.rule})` });
      if (c.rule === "response-time" && c.threshold === null)
        details.push({ field: `${at}.threshold`, message: "is required with rule response-time" });
      if (c.rule !== "response-time" && c.threshold !== null)
        details.push({ field: `${at}.threshold`, message: "is allowed only with rule response-time" });
    }),
  );
  if (count > MAX_COMPONENTS)
    details.push({ field: "sections", message: `must have at most ${MAX_COMPONENTS} components in all` });
  rules.forEach((r, i) => {
    if ((r.component === null) === (r.tag === null))
      details.push({ field: `incident_rules[${i}]`, message: "must give exactly one of component and tag" });
    if (r.component !== null && !keys.has(r.component))
      details.push({ field: `incident_rules[${i}].component`, message: `no component "${r.component}" on the page` });
  });
  return details;
}
