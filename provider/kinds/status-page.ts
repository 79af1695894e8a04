import { CreateStatusPageSchema, issuesToDetails, STATUS_PAGE_FIELDS, type StatusPage } from "../../api";
import { Fields, resourceOutputs } from "./fields";
import type { Kind } from "./kind";
import type { Failure, Props } from "./values";

const fields = new Fields(STATUS_PAGE_FIELDS);

/** Written in place of a password set outside the program: differs from any declaration, so it shows as drift. */
const SET_ELSEWHERE = "(a password set outside this program)";

/**
 * The password is write-only: reads say only whether one is set. The output keeps the declared
 * one while the page has a password; a password set or cleared outside the program is drift.
 */
function passwordOutput(api: StatusPage, inputs: Props): string | null {
  const declared = typeof inputs.password === "string" ? inputs.password : null;
  if (api.password_set === undefined) return declared; // a server older than the field
  if (!api.password_set) return null;
  return declared ?? SET_ELSEWHERE;
}

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
      password: passwordOutput(api, inputs),
      publicUrl: `${connection.baseUrl}/api/status/${api.slug}.json`,
      pageUrl: `${connection.baseUrl}/status/${api.slug}`,
      ...resourceOutputs(inputs, connection),
    };
  },

  refreshedInputs: (api) => fields.fromApi(api, true),
};
