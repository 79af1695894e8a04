import type { UptimeClient } from "../client/client";
import type { Connection } from "../client/connection";
import type { Fields } from "./fields";
import type { Failure, Props } from "./values";

/**
 * What the generic runtime needs to know about one kind of API object. Comparable fields
 * (`desired`/`actual`) are keyed by API name and hold values in the API's normal form, so a
 * second `pulumi up` compares equal values and reports no change; `propertyOf` names the input
 * property each one comes from.
 */
export interface Kind<Api extends { id: string }> {
  /** "monitor", "channel", "status page": used in messages. */
  label: string;
  /** Collection path, e.g. `/api/v1/monitors`. */
  path: string;
  /** Whether GET/PATCH/DELETE by id are the server's extensions (channels, status pages). */
  byIdIsExtension: boolean;
  /** The kind's field table, as the provider reads it. */
  fields: Fields;
  /** Input properties whose change replaces the object. */
  replaceOnChange: readonly string[];
  /** Failures of the known inputs; `complete` is false when some inputs are unknown. */
  validate(inputs: Props, complete: boolean): Failure[];
  /** The comparable fields the inputs ask for (`id` known after create). */
  desired(inputs: Props, id: string | undefined): Props;
  /** The comparable fields of the state (outputs). */
  actual(outputs: Props): Props;
  /** The input property a comparable field comes from (for unknowns and detailed diffs). */
  propertyOf(field: string): string;
  createBody(inputs: Props): object;
  patchBody(inputs: Props, changed: readonly string[], id: string): object;
  /**
   * Outputs to store: the live object, camelCase, with what the inputs add. `previous` is given
   * when the state had outputs before (read, update): `rewrote` names the input properties this
   * call just wrote; what the provider recorded about the others carries over.
   */
  outputs(api: Api, inputs: Props, connection: Connection, previous?: Previous): Props;
  /**
   * The outputs as the state keeps them (default: all of them): a monitor's leave out what its type
   * does not need. Lookups answer with the whole outputs.
   */
  state?(outputs: Props): Props;
  /** The outputs `state` may leave out: the package schema does not promise them. */
  stateLeavesOut?: readonly string[];
  /** Inputs after a refresh: what the live object would be declared as, secrets left out. */
  refreshedInputs(api: Api): Props;
  /** Extra calls after a write (a monitor's pause/resume). */
  afterWrite?(client: UptimeClient, api: Api, inputs: Props): Promise<Api>;
  /** Extra calls after a create or an adoption only (a heartbeat monitor's push URL). */
  afterCreate?(client: UptimeClient, api: Api, inputs: Props): Promise<Api>;
}

/** The outputs before a read or update, and the input properties it wrote to the service. */
export interface Previous {
  props: Props;
  rewrote: readonly string[];
}
