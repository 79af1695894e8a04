import { CreateStatusPageSchema, issuesToDetails, STATUS_PAGE_FIELDS, type StatusPage } from "../../api";
import { Fields, resourceOutputs } from "./fields";
import type { Kind } from "./kind";
import type { Failure, Props } from "./values";

const fields = new Fields(STATUS_PAGE_FIELDS);

/** Status pages: slug, title, description and a set of monitors; the slug moves the public URL. */
export const statusPageKind: Kind<StatusPage> = {
  label: "status page",
  path: "/api/v1/status-pages",
  byIdIsExtension: true,
  fields,
  replaceOnChange: fields.replaceOnChange(),

  validate(inputs, complete): Failure[] {
    const schema = complete ? CreateStatusPageSchema : CreateStatusPageSchema.partial();
    const body = fields.normalized(inputs);
    const known = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
    const parsed = schema.safeParse(complete ? body : known);
    return parsed.success ? [] : fields.failures(issuesToDetails(parsed.error.issues));
  },

  desired: (inputs) => fields.normalized(inputs),

  actual: (outputs) => fields.normalized(outputs),

  propertyOf: (field) => fields.propertyOf(field),

  createBody: (inputs) => fields.normalized(inputs),

  patchBody: (inputs, changed) => fields.patch(fields.normalized(inputs), changed),

  outputs(api, inputs, connection): Props {
    return {
      ...fields.fromApi(api),
      publicUrl: `${connection.baseUrl}/api/status/${api.slug}.json`,
      pageUrl: `${connection.baseUrl}/status/${api.slug}`,
      ...resourceOutputs(inputs, connection),
    };
  },

  refreshedInputs: (api) => fields.fromApi(api, true),
};
