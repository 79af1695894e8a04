import fp from "fastify-plugin";
import { ChannelService } from "./channels";
import { DryRunService } from "./dry-run";
import { MaintenanceWindowService } from "./maintenance-windows";
import { MonitorReads } from "./monitor-reads";
import { MonitorService } from "./monitors";
import { PushService } from "./push";
import { StatusPageService } from "./status-pages";
import { StatusIncidentService } from "./status-incidents";
import { sweepIncidentRules } from "./incident-rules";
import { sweepMaintenanceStarts } from "./status-maintenance";
import { StatusSubscriberService } from "./status-subscribers";
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
  /** Incidents of status pages and their manual components' states. */
  statusIncidents: StatusIncidentService;
  /** Subscribers of status pages (email, webhook) and what they are told. */
  statusSubscribers: StatusSubscriberService;
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
    const statusSubscribers = new StatusSubscriberService({
      store: app.store,
      sendMail: app.notifier.ctx.sendMail,
      dispatcher: app.notifier.ctx.dispatcher,
      allowPrivate: app.settings.allowPrivateTargets,
      limitPerHour: app.settings.subscribeLimitPerHour,
      baseUrl: (page) =>
        page.custom_domain
          ? `https://${page.custom_domain}`
          : (app.settings.publicUrl ?? listening(app)).replace(/\/+$/, ""),
      log: app.log,
      retryDelaysMs: app.settings.notifyRetryDelaysMs,
    });
    const statusIncidents = new StatusIncidentService(app.store, async (page, incident, event) => {
      await statusSubscribers.incident(page, incident, event);
    });
    const services: Services = {
      monitors,
      monitorReads: new MonitorReads(monitors, app.store.secrets),
      dryRuns,
      triggers: new TriggerService(monitors, dryRuns, {
        store: app.store,
        checker: app.checker,
        notifier: app.notifier,
        locations: app.locations,
      }),
      channels: new ChannelService(app.store, app.notifier, app.settings.allowPrivateTargets),
      statusPages: new StatusPageService(app.store),
      maintenanceWindows: new MaintenanceWindowService(app.store),
      push: new PushService(app.store, { checker: app.checker, notifier: app.notifier }),
      statusIncidents,
      statusSubscribers,
    };
    app.decorate("services", services);
    // Incident rules: each pass opens the incidents whose monitors stayed down long enough and
    // resolves those whose monitors recovered.
    let timer: NodeJS.Timeout | undefined;
    let sweeping: Promise<void> = Promise.resolve();
    const sweep = () => {
      sweeping = sweepIncidentRules(app.store, statusIncidents)
        .then(async () => await sweepMaintenanceStarts(app.store, statusSubscribers))
        .catch((err: unknown) => app.log.error({ err }, "incident rules failed"));
    };
    app.addHook("onReady", async () => {
      timer = setInterval(sweep, app.settings.incidentRuleTickMs);
      timer.unref();
    });
    app.addHook("preClose", async () => {
      clearInterval(timer);
      await sweeping;
      statusSubscribers.close();
    });
  },
  { name: "services", dependencies: ["store", "monitoring"] },
);

/** The server's own address, for links when no `publicUrl` is configured. */
function listening(app: { server: { address(): unknown } }): string {
  const address = app.server.address() as { address: string; port: number; family: string } | null;
  if (!address) return "http://localhost";
  const host = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return `http://${host === "0.0.0.0" || host === "[::]" ? "localhost" : host}:${address.port}`;
}
