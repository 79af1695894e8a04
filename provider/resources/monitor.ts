import { MONITOR_FIELDS, stepsHoldPlainCredential, type TypeSpecificProperty } from "../../api";
import { absentMonitorOutput } from "../kinds/monitor-state";
import type { ArgsOf, MaybeUndefined, OutputsOf } from "./types";
import { tableResource } from "./table-resource";
import { DRY_RUN_INPUT, type DryRunInput } from "../runtime/dry-run-input";

/**
 * Inputs of a Monitor, one per row of the monitor's field table. Field rules are checked at
 * preview time, before any request.
 */
export type MonitorArgs = ArgsOf<typeof MONITOR_FIELDS> & {
  /**
   * A monitor whose check is expected to fail today (a service not deployed yet): with
   * `uptime:testChecks` on, its failing dry run does not fail the preview. Default false.
   */
  expectFailing?: boolean;
};

/**
 * The outputs of a Monitor: every field as the service stores it. A property of other monitor
 * types only (`keyword` of an http monitor) is `undefined`: the state leaves it out.
 */
export type MonitorOutputs = MaybeUndefined<OutputsOf<typeof MONITOR_FIELDS>, TypeSpecificProperty>;

// The outputs are declared by the interface merged into the class, derived from the table.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface Monitor extends MonitorOutputs {}

/** An uptime monitor: the service probes `url` every `intervalSec` seconds. */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Monitor extends tableResource<MonitorArgs>("Monitor", MONITOR_FIELDS, {
  defaultName: true,
  absent: absentMonitorOutput,
  prepare: (name, { expectFailing, ...fields }) => {
    const dryRun: DryRunInput = { resource: name, ...(expectFailing ? { expectFailing: true } : {}) };
    return {
      inputs: fields,
      // Steps with a credential written as plain text are kept as a secret (api/secret-headers.ts).
      secrets: stepsHoldPlainCredential(fields.steps) ? ["steps"] : undefined,
      props: { [DRY_RUN_INPUT]: dryRun },
    };
  },
}) {}
