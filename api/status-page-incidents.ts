import { z } from "zod";
import { ID_PREFIX, idParams, idPattern, Timestamp } from "./common";
import {
  COMPONENT_KEY,
  COMPONENT_STATES,
  ComponentSchema,
  MANUAL_STATES,
  MAX_COMPONENTS,
  structureName,
} from "./status-page-structure";

/**
 * Incidents as people write them on a status page: operational records, not declared resources.
 * Each has a state (investigating → identified → monitoring → resolved), updates with a message
 * and the impact on each affected component, and a post-mortem after resolution. Today's
 * automatic down periods of monitors stay what they were: the record of what the checks saw.
 */

/** An incident's states, in their usual order. */
export const INCIDENT_STATES = ["investigating", "identified", "monitoring", "resolved"] as const;
export type IncidentState = (typeof INCIDENT_STATES)[number];

/** The impact of an incident on one component. */
export const INCIDENT_IMPACTS = ["none", "degraded", "partial-outage", "major-outage"] as const;
export type IncidentImpact = (typeof INCIDENT_IMPACTS)[number];

/** Path parameters of one incident of a page. */
export const IncidentParamsSchema = idParams(ID_PREFIX.statusPage).extend({
  incident: z.string().regex(idPattern("spi")),
});

/** Path parameters of one component of a page. */
export const ComponentParamsSchema = idParams(ID_PREFIX.statusPage).extend({
  key: z.string().regex(COMPONENT_KEY),
});

/** An incident's title: 1..200 characters. */
const title = z.string().trim().min(1, "must not be empty").max(200, "must be at most 200 characters");
const message = z.string().trim().min(1, "must not be empty").max(5000, "must be at most 5000 characters");
/** Component key → impact. */
const impacts = z.record(
  z.string().regex(COMPONENT_KEY, "must be the key of a component of the page"),
  z.enum(INCIDENT_IMPACTS),
);
/** What an update of an incident says, its first (in the create body) or a later one. */
const update = {
  message,
  /** The impact on each affected component from now on, by key; absent: none at first, later as before (resolved: none). */
  components: impacts.optional(),
};

/** The body of `POST /api/v1/status-pages/<id>/incidents`. */
export const CreateIncidentSchema = z
  .strictObject({
    title,
    /** Default `investigating`; `resolved` is refused (resolve an open incident instead). */
    state: z.enum(INCIDENT_STATES).exclude(["resolved"]).optional(),
    ...update,
  })
  .meta({ id: "CreateIncident" });
export type CreateIncident = z.infer<typeof CreateIncidentSchema>;

/** The body of `POST …/incidents/<incident>/updates`: a new state and message (`resolved` resolves it). */
export const IncidentUpdateBodySchema = z
  .strictObject({
    state: z.enum(INCIDENT_STATES),
    ...update,
  })
  .meta({ id: "IncidentUpdateBody" });
export type IncidentUpdateBody = z.infer<typeof IncidentUpdateBodySchema>;

/** The body of `PATCH …/incidents/<incident>`: the title, and the post-mortem once resolved. */
export const PatchIncidentSchema = z
  .strictObject({
    title: title.optional(),
    postmortem: z.string().max(50_000, "must be at most 50000 characters").nullable().optional(),
  })
  .meta({ id: "PatchIncident" });
export type PatchIncident = z.infer<typeof PatchIncidentSchema>;

/** Query of `GET …/incidents`: open ones, resolved ones, or all (newest first). */
export const IncidentListQuerySchema = z.strictObject({
  state: z.enum(["open", "resolved", "all"]).optional(),
});

/** One update of an incident. */
export const IncidentUpdateSchema = z.object({
  id: z.string(),
  state: z.enum(INCIDENT_STATES),
  message: z.string(),
  components: z.record(z.string(), z.enum(INCIDENT_IMPACTS)),
  created_at: Timestamp,
});
export type IncidentUpdate = z.infer<typeof IncidentUpdateSchema>;

/** An incident as the API returns it; updates newest first. */
export const IncidentSchema = z
  .object({
    id: z.string(),
    status_page_id: z.string(),
    title: z.string(),
    state: z.enum(INCIDENT_STATES),
    /** The impact now, by component key (the latest update's). */
    components: z.record(z.string(), z.enum(INCIDENT_IMPACTS)),
    postmortem: z.string().nullable(),
    /** The index of the incident rule that opened it; null for one a person opened. */
    rule: z.number().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
    resolved_at: Timestamp.nullable(),
    updates: z.array(IncidentUpdateSchema),
  })
  .meta({ id: "Incident" });
export type Incident = z.infer<typeof IncidentSchema>;

/**
 * The body of `PATCH` (or `PUT`) `/api/v1/status-pages/<id>/components/<key>`: a manual
 * component's state (operational data, never drift), or its name and description (declared
 * structure: a change here is drift that the next `pulumi up` repairs).
 */
export const ComponentPatchSchema = z
  .strictObject({
    state: z.enum(MANUAL_STATES).optional(),
    name: structureName.optional(),
    description: ComponentSchema.shape.description,
  })
  .meta({ id: "ComponentPatch" });
export type ComponentPatch = z.infer<typeof ComponentPatchSchema>;

/** A component with its state now (`GET`/`PATCH …/components/<key>`). */
export const ComponentViewSchema = z
  .object({
    key: z.string(),
    name: z.string(),
    rule: z.string(),
    state: z.enum(COMPONENT_STATES),
    /** When a person last set a manual component's state; null otherwise. */
    state_set_at: Timestamp.nullable(),
  })
  .meta({ id: "ComponentView" });
export type ComponentView = z.infer<typeof ComponentViewSchema>;

/** The body of `POST /api/status/<slug>/subscribe` (public): an email address or a webhook, for the page or some components. */
export const SubscribeSchema = z
  .strictObject({
    email: z.email("must be an email address").max(254).optional(),
    webhook: z
      .url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" })
      .max(2000)
      .optional(),
    /** Signs each webhook post (`X-Signature: sha256=<HMAC-SHA256 of the body>`), as channels do. */
    secret: z.string().min(16, "must be 16 to 200 characters").max(200, "must be 16 to 200 characters").optional(),
    /** Component keys to hear about; absent: the whole page. */
    components: z.array(z.string().regex(COMPONENT_KEY)).max(MAX_COMPONENTS).optional(),
  })
  .refine((b) => (b.email === undefined) !== (b.webhook === undefined), {
    message: "must give exactly one of email and webhook",
    path: ["email"],
  })
  .refine((b) => b.webhook !== undefined || b.secret === undefined, {
    message: "is only for a webhook",
    path: ["secret"],
  })
  .meta({ id: "Subscribe" });
export type Subscribe = z.infer<typeof SubscribeSchema>;
