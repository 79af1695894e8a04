import { STATUS_PAGE_FIELDS } from "../../api";
import type { ArgsOf, OutputsOf } from "./types";
import { tableResource } from "./table-resource";

/** Inputs of a StatusPage, one per row of the status page's field table. */
export type StatusPageArgs = ArgsOf<typeof STATUS_PAGE_FIELDS>;

/** The outputs of a StatusPage. */
export type StatusPageOutputs = OutputsOf<typeof STATUS_PAGE_FIELDS>;

// The outputs are declared by the interface merged into the class, derived from the table.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface StatusPage extends StatusPageOutputs {}

/** A public status page listing monitors by name and health. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class StatusPage extends tableResource<StatusPageArgs>("StatusPage", STATUS_PAGE_FIELDS) {}
