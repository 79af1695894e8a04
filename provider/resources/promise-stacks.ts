/**
 * Registering a resource, the Pulumi SDK creates four promises per property and formats a stack
 * trace for each (`debuggablePromise`), kept only for its report of promises still pending at
 * exit. Under ts-node, which Pulumi uses to run TypeScript programs, every stack is formatted
 * through source maps: at 300 monitors of 35 properties, that was the largest part of the
 * program's extra time in a no-op preview (`bench/up.mts`).
 *
 * While a resource of this package registers (its synchronous constructor), those stacks are
 * formatted as their first line only. The report still names each promise by resource and
 * property (the SDK's label, such as `transferProperty(api, url, …)`). Every other stack, such as
 * the source position and stack trace Pulumi records for the resource, or an error's, still goes
 * through the installed formatter. Without one (a JavaScript program), nothing changes.
 *
 * Capturing the frames costs too, by how many are kept: TypeScript, which ts-node loads, raises
 * `Error.stackTraceLimit` to 100. While the constructor runs it is Node's default of 10 again, as
 * in a JavaScript program (at 1,000 monitors, capture was a sixth of the program's CPU).
 */
export function cheapPromiseStacks(): () => void {
  const installed = Error.prepareStackTrace;
  if (typeof installed !== "function") return () => undefined;
  const limit = Error.stackTraceLimit;
  try {
    Error.prepareStackTrace = (error, frames) =>
      frames[0]?.getFunctionName() === "debuggablePromise" ? String(error) : installed(error, frames);
    if (limit > NODE_STACK_LIMIT) Error.stackTraceLimit = NODE_STACK_LIMIT;
  } catch {
    // A formatter installed read-only stays as it is.
    return () => undefined;
  }
  return () => {
    Error.prepareStackTrace = installed;
    Error.stackTraceLimit = limit;
  };
}

/** Node's own `Error.stackTraceLimit`. */
const NODE_STACK_LIMIT = 10;
