import { MAINTENANCE_WINDOW_FIELDS } from "../../api";
import type { ArgsOf, OutputsOf } from "./types";
import { tableResource } from "./table-resource";

/** Inputs of a MaintenanceWindow, one per row of its field table. */
export type MaintenanceWindowArgs = ArgsOf<typeof MAINTENANCE_WINDOW_FIELDS>;

/** The outputs of a MaintenanceWindow. */
export type MaintenanceWindowOutputs = OutputsOf<typeof MAINTENANCE_WINDOW_FIELDS>;

// The outputs are declared by the interface merged into the class, derived from the table.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface MaintenanceWindow extends MaintenanceWindowOutputs {}

/**
 * A maintenance window (an extension of the API): while it is in effect, failed checks of its
 * monitors open no incident, notify nobody and count as maintenance, not downtime.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class MaintenanceWindow extends tableResource<MaintenanceWindowArgs>(
  "MaintenanceWindow",
  MAINTENANCE_WINDOW_FIELDS,
  { defaultName: true },
) {}
