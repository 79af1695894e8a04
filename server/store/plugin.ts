import fp from "fastify-plugin";
import { Store } from "./index";

const PRUNE_EVERY_MS = 3_600_000;

/**
 * Opens the store named by the settings (seeding the dev key when one is set), prunes old check
 * results and idempotency records every hour, and closes the database with the app.
 */
export const storePlugin = fp(
  async (app) => {
    const { db, devKey } = app.settings;
    const store = Store.open(db);
    if (devKey && !store.keys.authenticate(devKey)) store.keys.create("dev", "dev key", devKey);
    app.decorate("store", store);
    const prune = () => {
      store.pruneChecks();
      store.idempotency.prune();
    };
    const timer = setInterval(prune, PRUNE_EVERY_MS).unref();
    app.addHook("onReady", async () => prune());
    app.addHook("onClose", async () => {
      clearInterval(timer);
      store.close();
    });
  },
  { name: "store" },
);
