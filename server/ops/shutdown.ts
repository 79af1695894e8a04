import type { FastifyInstance } from "fastify";

/**
 * On SIGTERM or SIGINT, closes the app gracefully and exits: new requests get 503 and /readyz
 * turns 503, the checker starts no new check and records the ones under way, pending
 * notifications get their last attempt (or land in the outbox), requests in flight are answered,
 * and the database is closed (checkpointed) last. Exits 0 when all of that finished, 1 when
 * `timeoutMs` passed first: every write already answered is committed either way, and a check
 * cut short was never recorded, so its monitor is due at once on the next start. Returns a
 * function that removes the signal handlers.
 */
export function closeOnSignals(
  app: FastifyInstance,
  timeoutMs: number,
  exit: (code: number) => void = (code) => process.exit(code),
): () => void {
  let closing = false;
  const stop = (signal: NodeJS.Signals) => {
    if (closing) return;
    closing = true;
    app.draining = true;
    app.log.info({ signal, timeoutMs }, "shutting down: draining requests, checks and notifications");
    const timer = setTimeout(() => {
      // What the close still waits for, so the operator (and a failed test) can tell why.
      app.server.getConnections((_err, connections) => {
        try {
          const waiting = {
            connections,
            checks: app.checker.checksInFlight,
            deliveries: app.notifier.deliveriesPending,
          };
          app.log.error({ timeoutMs, waiting }, "shutdown timed out: exiting with work still in flight");
        } finally {
          exit(1);
        }
      });
    }, timeoutMs);
    timer.unref();
    app.close().then(
      () => {
        clearTimeout(timer);
        app.log.info("stopped");
        exit(0);
      },
      (err: Error) => {
        app.log.error({ err }, "shutdown failed");
        exit(1);
      },
    );
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  return () => {
    process.off("SIGTERM", stop);
    process.off("SIGINT", stop);
  };
}
