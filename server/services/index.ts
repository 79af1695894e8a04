import fp from "fastify-plugin";
import { ChannelService } from "./channels";
import { DryRunService } from "./dry-run";
import { MonitorService } from "./monitors";
import { StatusPageService } from "./status-pages";
import { TriggerService } from "./trigger";

/** The one way from a route to the store: every handler calls a service, never a repository. */
export interface Services {
  monitors: MonitorService;
  channels: ChannelService;
  statusPages: StatusPageService;
  /** One check now, stored nowhere (`POST …/monitors/test`, `POST …/monitors/{id}/test`). */
  dryRuns: DryRunService;
  /** The selected monitors' checks now, stored or not (`POST …/monitors/trigger`). */
  triggers: TriggerService;
}

/** Decorates the app with `services`, built over the store, the checker and the notifier. */
export const servicesPlugin = fp(
  async (app) => {
    // Every change reaches both schedules: the built-in checker's and the agents' leases.
    const schedules = {
      refresh: async (id: string) => {
        await app.checker.refresh(id);
        await app.leases.refresh(id);
      },
    };
    const monitors = new MonitorService(app.store, app.settings, schedules, app.locations);
    const dryRuns = new DryRunService(monitors, app.checker, { locations: app.locations, trials: app.leases.trials });
    const services: Services = {
      monitors,
      dryRuns,
      triggers: new TriggerService(monitors, dryRuns, { store: app.store, checker: app.checker, notifier: app.notifier, locations: app.locations }),
      channels: new ChannelService(app.store, app.notifier, app.settings.allowPrivateTargets),
      statusPages: new StatusPageService(app.store),
    };
    app.decorate("services", services);
  },
  { name: "services", dependencies: ["store", "monitoring"] },
);
