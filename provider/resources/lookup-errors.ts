/**
 * A lookup's failure as a program shows it: one Pulumi error (a `RunError`: the message, without
 * the stack trace and source text Pulumi prints for an unexpected error) that names the lookup,
 * what was asked, what was found, and what to do.
 */
import { RunError } from "@pulumi/pulumi/errors";
import type { Connection } from "../client/connection";
import { explainFailure } from "../client/failure";
import { keyFrom } from "../runtime/connection-change";

/** `getChannel({ name: "ops" })`, `getMonitor({})`. */
function asked(fn: string, args: object): string {
  const given = Object.entries(args).filter(([, v]) => v !== undefined);
  return `${fn}(${given.length ? `{ ${given.map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join(", ")} }` : "{}"})`;
}

/**
 * A RunError whose stack is its message: Pulumi prints a RunError's message alone when the program
 * throws it, but the stack (frames of this package) when it fails a resource's input through an
 * Output; the message stays current as the SDK prefixes it with the property it failed.
 */
function clean(message: string): RunError {
  const err = new RunError(message);
  Object.defineProperty(err, "stack", { get: () => err.message });
  return err;
}

/**
 * The error a program sees for a failed lookup `fn` with `args`, at `connection` (when it
 * resolved). It keeps the failure's `code` (`lookup_not_found`, `lookup_ambiguous`, an API code)
 * and, for a lookup by name, `matches`.
 */
export function lookupError(fn: string, args: object, err: unknown, connection: Connection | undefined): RunError {
  const { code, status, matches } = err as { code?: unknown; status?: unknown; matches?: unknown };
  let message = err instanceof Error ? err.message.replace(`${fn}: `, "") : String(err);
  if (connection && typeof code === "string" && typeof status === "number" && !code.startsWith("lookup_")) {
    const explained = explainFailure(err, {
      kind: fn,
      resource: "",
      action: "lookup",
      baseUrl: connection.baseUrl,
      keyFrom: keyFrom(connection, "lookup"),
    }) as Error;
    message = explained.message.replace(/^\S+ "" could not be lookup: /, "");
  }
  return Object.assign(clean(`${asked(fn, args)} failed: ${message}`), { code, status, matches });
}
