import fp from "fastify-plugin";
import { Store } from "./index";

const PRUNE_EVERY_MS = 3_600_000;

/**
 * Opens the store named by the settings (seeding the dev key when one is set), prunes old check
 * results and idempotency records every hour, and closes the database with the app.
 */
export const storePlugin = fp(
  async (app) => {
    const { db, devKey, secretKeyFile } = app.settings;
    const store = await Store.open(db, { secretKeyFile });
    if (devKey && !(await store.keys.authenticate(devKey))) await store.keys.create("dev", "dev key", devKey);
    app.decorate("store", store);
    const prune = async () => {
      await store.pruneChecks();
      await store.idempotency.prune();
    };
    const timer = setInterval(
      () => void prune().catch((err: Error) => app.log.error({ err }, "pruning old records failed")),
      PRUNE_EVERY_MS,
    ).unref();
    app.addHook("onReady", async () => await prune());
    app.addHook("onClose", async () => {
      clearInterval(timer);
      await store.close();
    });
  },
  { name: "store" },
);
