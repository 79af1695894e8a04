import {
  CreateMaintenanceWindowSchema,
  issuesToDetails,
  MAINTENANCE_WINDOW_FIELDS,
  type MaintenanceWindow,
  maintenanceWindowViolations,
  toMaintenanceWindowSpec,
} from "../../api";
import { Fields, resourceOutputs } from "./fields";
import type { Kind } from "./kind";
import type { Failure } from "./values";

const fields = new Fields(MAINTENANCE_WINDOW_FIELDS);

/** Maintenance windows (an extension of the API): monitors silenced once or on an RRULE. */
export const maintenanceWindowKind: Kind<MaintenanceWindow> = {
  label: "maintenance window",
  path: "/api/v1/maintenance-windows",
  byIdIsExtension: false,
  fields,
  replaceOnChange: [],

  validate(inputs, complete): Failure[] {
    const schema = complete ? CreateMaintenanceWindowSchema : CreateMaintenanceWindowSchema.partial();
    const body = fields.normalized(inputs);
    const known = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined));
    const parsed = schema.safeParse(complete ? body : known);
    if (!parsed.success) return fields.failures(issuesToDetails(parsed.error.issues));
    return complete ? fields.failures(maintenanceWindowViolations(toMaintenanceWindowSpec(parsed.data))) : [];
  },

  desired: (inputs) => fields.normalized(inputs),

  actual: (outputs) => fields.normalized(outputs),

  propertyOf: (field) => fields.propertyOf(field),

  createBody: (inputs) => fields.normalized(inputs),

  patchBody: (inputs, changed) => fields.patch(fields.normalized(inputs), changed),

  outputs: (api, inputs, connection) => ({ ...fields.fromApi(api), ...resourceOutputs(inputs, connection) }),

  refreshedInputs: (api) => fields.fromApi(api, true),
};
