import fp from "fastify-plugin";
import { createTransport } from "nodemailer";
import { interceptors } from "undici";
import { locationsOf } from "../api";
import { LeaseService } from "./agents/leases";
import { Locations } from "./agents/locations";
import { Checker } from "./checker/checker";
import "./http/types";
import type { SendMail } from "./notify/deliver";
import { Notifier } from "./notify/notifier";
import { AlertScheduler } from "./notify/reminders";
import { outboundAgent } from "./outbound";
import { closeBrowserSpare } from "./checker/browser/run";
import type { CheckOutcome } from "./store/heartbeats";
import type { ScheduledMonitor } from "./store/monitors";

/**
 * The monitoring wiring: the notifier, the checker, the agents' locations and leases, and the
 * alert scheduler, decorated on the app, started when it is ready and stopped in order when it
 * closes. Outbound connections go under the outbound policy.
 */
export const monitoringPlugin = fp(
  async (app) => {
    const { settings, store, metrics } = app;
    const outbound = outboundAgent(settings.allowPrivateTargets);
    const following = outbound.compose(interceptors.redirect({ maxRedirections: 5 }));
    const notifier = new Notifier(
      {
        store,
        dispatcher: outbound,
        allowPrivate: settings.allowPrivateTargets,
        sendMail: mailer(settings.smtpUrl, settings.smtpFrom),
      },
      app.log,
      settings.notifyRetryDelaysMs,
      {
        delivered: (type) => metrics.notificationsSent.inc({ channel_type: type }),
        failed: (type) => metrics.notificationsFailed.inc({ channel_type: type }),
      },
    );
    store.location = settings.location;
    const locations = new Locations(
      store,
      settings.location,
      settings.checker,
      settings.agentLiveMs,
      settings.allowPrivateTargets,
    );
    const observer = {
      lag: (ms: number) => metrics.schedulerLag.observe(ms / 1000),
      checked: (type: string, up: boolean, ms: number, location = settings.location) => {
        metrics.checks.inc({ result: up ? "up" : "down", location });
        metrics.probeDuration.observe({ type }, ms / 1000);
      },
    };
    const place = {
      checks: (m: ScheduledMonitor) =>
        (m.type as string) === "heartbeat" || locationsOf(m, settings.location).includes(settings.location),
      policy: (m: ScheduledMonitor) => locations.policy(m, settings.location),
      retryElsewhere: (m: ScheduledMonitor, outcome: CheckOutcome): Promise<CheckOutcome> =>
        leases.elsewhere.wants(m, outcome)
          ? leases.elsewhere.retry(m, settings.location, outcome)
          : Promise.resolve(outcome),
    };
    const checker = new Checker(
      store,
      {
        follow: following,
        direct: outbound,
        allowPrivate: settings.allowPrivateTargets,
        rdapBootstrapUrl: settings.rdapBootstrapUrl,
        ownPorts: () => listeningPorts(app.server),
      },
      notifier,
      app.log,
      settings.checkConcurrency,
      observer,
      place,
    );
    const leases = new LeaseService(
      store,
      locations,
      notifier,
      app.log,
      settings.leaseMs,
      observer,
      (m): Promise<CheckOutcome | undefined> => checker.runOnce(m),
    );
    const alerts = new AlertScheduler(store, notifier, app.log, settings.alertTickMs);
    app.decorate("notifier", notifier);
    app.decorate("checker", checker);
    app.decorate("locations", locations);
    app.decorate("leases", leases);
    app.addHook("onReady", async () => {
      if (settings.checker) await checker.start();
      await leases.start();
      // Reminders, escalations, and what a stopped server left pending.
      await alerts.start();
    });
    // Shutdown order: no new checks, the checks under way recorded, their notifications
    // delivered (or in the outbox), then the connections and, last (its own hook), the database.
    app.addHook("preClose", async () => {
      app.draining = true;
      leases.stop();
      await leases.elsewhere.stop();
      await checker.stop();
    });
    app.addHook("onClose", async () => {
      await checker.stop();
      alerts.stop();
      await notifier.drain();
      await outbound.close();
      await closeBrowserSpare();
    });
  },
  { name: "monitoring", dependencies: ["store"] },
);

/** The port the server listens on, once it listens (none on a Unix socket). */
function listeningPorts(server: { address(): unknown }): number[] {
  const address = server.address() as { port?: number } | string | null;
  return address !== null && typeof address === "object" && typeof address.port === "number" ? [address.port] : [];
}

function mailer(url: string | undefined, from: string): SendMail | undefined {
  if (!url) return undefined;
  const transport = createTransport(url);
  return (message) => transport.sendMail({ from, ...message });
}
