import fp from "fastify-plugin";
import { ChannelService } from "./channels";
import { DryRunService } from "./dry-run";
import { MaintenanceWindowService } from "./maintenance-windows";
import { MonitorReads } from "./monitor-reads";
import { MonitorService } from "./monitors";
import { PushService } from "./push";
import { StatusPageService } from "./status-pages";
import { TriggerService } from "./trigger";

/** The one way from a route to the store: every handler calls a service, never a repository. */
export interface Services {
  monitors: MonitorService;
  /** The monitors as the API shows them: secret fields write-only (fingerprints on reads). */
  monitorReads: MonitorReads;
  channels: ChannelService;
  statusPages: StatusPageService;
  maintenanceWindows: MaintenanceWindowService;
  /** Heartbeat monitors' push URLs and their pings. */
  push: PushService;
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
      monitorReads: new MonitorReads(monitors, app.store.secrets),
      dryRuns,
      triggers: new TriggerService(monitors, dryRuns, { store: app.store, checker: app.checker, notifier: app.notifier, locations: app.locations }),
      channels: new ChannelService(app.store, app.notifier, app.settings.allowPrivateTargets),
      statusPages: new StatusPageService(app.store),
      maintenanceWindows: new MaintenanceWindowService(app.store),
      push: new PushService(app.store, { checker: app.checker, notifier: app.notifier }),
    };
    app.decorate("services", services);
  },
  { name: "services", dependencies: ["store", "monitoring"] },
);
