/**
 * Registering a resource, the Pulumi SDK creates four promises per property and captures a stack
 * trace for each (`debuggablePromise`), kept only for its report of promises still pending at
 * exit. At 1,000 monitors of 42 registered properties that is 168,000 stacks: capturing and
 * formatting them (under ts-node, through source maps) was a third of the program's busy time in a
 * no-op preview (`BENCH_CPU_PROF`, `bench/up.mts`).
 *
 * While the SDK's constructor of a resource of this package runs, `Error.stackTraceLimit` is 0, so
 * those stacks capture no frame. The leak report still names each promise by resource and
 * property (the SDK's label, such as `transferProperty(api, url, …)`). What the SDK records for
 * the resource itself, its source position and stack trace, is captured with a limit of its own
 * (`Resource.callsites`) and does not change. An error the constructor throws gets its stack again
 * from where the program called it (`withStack`).
 */
export function cheapPromiseStacks(): () => void {
  const limit = Error.stackTraceLimit;
  try {
    Error.stackTraceLimit = 0;
  } catch {
    // A limit made read-only stays as it is.
    return () => undefined;
  }
  return () => {
    Error.stackTraceLimit = limit;
  };
}

/**
 * An error thrown while stacks were cut (`cheapPromiseStacks`), with the stack of the caller
 * (`below`, a constructor: the frames from the program's own call outwards). Other values and
 * errors that kept a stack pass through as they are.
 */
export function withStack(err: unknown, below: NewableFunction): unknown {
  if (err instanceof Error && !/\n\s+at /.test(err.stack ?? "")) Error.captureStackTrace(err, below);
  return err;
}
