import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import type { Store } from "../store";

/** Seconds: from a few milliseconds up to a probe's longest timeout. */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60];

/**
 * The server's Prometheus metrics, in a registry of its own (several servers may share a
 * process in tests). Names follow Prometheus conventions: `_total` counters, `_seconds` and
 * `_bytes` units. Counters move where the work happens; gauges read the store at scrape time.
 */
export class Metrics {
  readonly registry = new Registry();
  /** Checks recorded, by result (`up`, `down`) and the location that ran them. */
  readonly checks: Counter<"result" | "location">;
  /** How late a check started after its scheduled time. */
  readonly schedulerLag: Histogram;
  /** How long a check's probe took, by monitor type. */
  readonly probeDuration: Histogram<"type">;
  /** Notifications delivered, by channel type. */
  readonly notificationsSent: Counter<"channel_type">;
  /** Notifications given up after their last attempt, by channel type. */
  readonly notificationsFailed: Counter<"channel_type">;
  /** Answered HTTP requests, by method, route template (`unmatched` for none) and status. */
  readonly httpRequests: Counter<"method" | "route" | "status">;
  /** Public status answers sent from their kept bytes, before Fastify's lifecycle (routes/status-kept.ts), by route. */
  readonly keptStatusAnswers: Counter<"route">;

  constructor(store: Store) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry });
    this.checks = new Counter({
      name: "uptime_checks_total",
      help: "Checks recorded, by result and location.",
      labelNames: ["result", "location"],
      registers,
    });
    this.schedulerLag = new Histogram({
      name: "uptime_scheduler_lag_seconds",
      help: "Delay between a check's scheduled time and its start.",
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.probeDuration = new Histogram({
      name: "uptime_probe_duration_seconds",
      help: "Duration of a check's probe, by monitor type.",
      labelNames: ["type"],
      buckets: DURATION_BUCKETS,
      registers,
    });
    this.notificationsSent = new Counter({
      name: "uptime_notifications_sent_total",
      help: "Notifications delivered, by channel type.",
      labelNames: ["channel_type"],
      registers,
    });
    this.notificationsFailed = new Counter({
      name: "uptime_notifications_failed_total",
      help: "Notifications given up after their last attempt, by channel type.",
      labelNames: ["channel_type"],
      registers,
    });
    this.httpRequests = new Counter({
      name: "uptime_http_requests_total",
      help: "Answered HTTP requests, by method, route and status.",
      labelNames: ["method", "route", "status"],
      registers,
    });
    this.keptStatusAnswers = new Counter({
      name: "uptime_http_kept_status_answers_total",
      help: "Public status answers sent from their kept bytes (also counted in uptime_http_requests_total), by route.",
      labelNames: ["route"],
      registers,
    });
    const open = () => store.db.isOpen;
    new Gauge({
      name: "uptime_database_size_bytes",
      help: "Size of the database file's pages.",
      registers,
      async collect() {
        if (open()) this.set(await store.sizeBytes());
      },
    });
    new Gauge({
      name: "uptime_open_incidents",
      help: "Incidents open now, across all accounts.",
      registers,
      async collect() {
        if (open()) this.set(await store.health.openCount());
      },
    });
  }
}
