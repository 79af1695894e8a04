import { CreateStatusPageSchema, issuesToDetails, normalizeSet, type StatusPage } from "../../api";
import { type Failure, type Kind, type Props, toProperty } from "./kind";

const FIELDS = ["slug", "title", "description", "monitorIds"] as const;

const body = (inputs: Props) => ({
  slug: inputs.slug,
  title: inputs.title,
  description: inputs.description ?? null,
  monitor_ids: normalizeSet((inputs.monitorIds as string[] | undefined) ?? []),
});

/** Status pages: slug, title, description and a set of monitors; the slug moves the public URL. */
export const statusPageKind: Kind<StatusPage> = {
  label: "status page",
  path: "/api/v1/status-pages",
  byIdIsExtension: true,
  replaceOnChange: [],

  validate(inputs, complete): Failure[] {
    const schema = complete ? CreateStatusPageSchema : CreateStatusPageSchema.partial();
    const known = Object.fromEntries(Object.entries(body(inputs)).filter(([, v]) => v !== undefined));
    const parsed = schema.safeParse(complete ? body(inputs) : known);
    if (parsed.success) return [];
    return issuesToDetails(parsed.error.issues).map((d) => ({
      property: toProperty(d.field),
      reason: `${toProperty(d.field)}: ${d.message}`,
    }));
  },

  desired: (inputs) => {
    const b = body(inputs);
    return { slug: b.slug, title: b.title, description: b.description, monitorIds: b.monitor_ids };
  },

  actual: (outputs) => Object.fromEntries(FIELDS.map((f) => [f, outputs[f] ?? (f === "description" ? null : undefined)])),

  createBody: body,

  patchBody(inputs, changed) {
    const b = body(inputs) as Props;
    const snake: Record<string, string> = { monitorIds: "monitor_ids" };
    return Object.fromEntries(changed.map((p) => [snake[p] ?? p, b[snake[p] ?? p]]));
  },

  outputs(api, inputs, connection) {
    return {
      slug: api.slug,
      title: api.title,
      description: api.description,
      monitorIds: api.monitor_ids,
      createdAt: api.created_at,
      updatedAt: api.updated_at,
      publicUrl: `${connection.baseUrl}/api/status/${api.slug}.json`,
      endpoint: connection.baseUrl,
      ...(inputs.connection ? { connection: inputs.connection } : {}),
      ...(inputs.adopt ? { adopt: inputs.adopt } : {}),
    };
  },

  refreshedInputs: (api) => ({ slug: api.slug, title: api.title, description: api.description, monitorIds: api.monitor_ids }),
};
