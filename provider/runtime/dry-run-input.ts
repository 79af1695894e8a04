/** The internal input of a Monitor for the dry runs of `uptime:testChecks` (see test-checks.ts). */
export const DRY_RUN_INPUT = "__dryRun";

/** What a Monitor passes in `__dryRun`: plain values, known at preview. */
export interface DryRunInput {
  /** The Pulumi resource name (a stack's first preview knows no identity yet). */
  resource: string;
  /** Let the monitor through `uptime:testChecks` even when its check fails (a service not deployed yet). */
  expectFailing?: boolean;
}
