import type { ComponentState, StatusDocument, StatusPageLocale } from "../../api";

// What the status pages render: the services compute these views, the templates here show them.

/** Days in each uptime bar of a status page, and the window of the incidents it lists. */
export const BAR_DAYS = 90;

/** One day of a component: its monitors' uptime together, and the incidents that touched it that day. */
export interface ComponentDay {
  date: string;
  checks: number;
  uptimePct: number | null;
  /** The worst state of the day, from its uptime and its incidents. */
  worst: "operational" | "degraded" | "down" | "none";
  incidents: string[];
}

/** A response-time chart: mean ms per bucket (null: no timed check), oldest first. */
export interface ResponseChart {
  label: "24h" | "7d";
  points: (number | null)[];
}

/** A component as the page shows it. */
export interface PageComponent {
  key: string;
  name: string;
  description: string | null;
  status: ComponentState;
  uptimePct30d: number | null;
  manual: boolean;
  days: ComponentDay[];
  charts: ResponseChart[];
}

/** A section of components. */
export interface PageSection {
  name: string;
  components: PageComponent[];
}

/** One day of an uptime bar. `maintenance` marks a day inside a maintenance window. */
export interface DayCell {
  date: string;
  checks: number;
  uptimePct: number | null;
  maintenance: boolean;
}

/** A monitor as the page shows it: the public document's entry plus its {@link BAR_DAYS} days. */
export interface PageMonitor {
  name: string;
  status: StatusDocument["monitors"][number]["status"];
  uptimePct30d: number | null;
  days: DayCell[];
}

/** An incident by monitor name (never its id). */
export interface PageIncident {
  monitor: string;
  startedAt: string;
  endedAt: string | null;
}

/** Everything the HTML page renders; nothing the JSON document keeps private (ids, URLs, headers). */
export interface StatusPageView {
  slug: string;
  title: string;
  locale: StatusPageLocale;
  logoUrl: string | null;
  brandColor: string | null;
  /** A password or address ranges guard it: search engines are asked not to index it. */
  private: boolean;
  sections: PageSection[];
  /** Incidents people wrote (and rules opened): open ones first. */
  statusIncidents: StatusDocument["incidents"];
  maintenance: StatusDocument["maintenance"];
  description: string | null;
  status: StatusDocument["status"];
  updatedAt: string;
  monitors: PageMonitor[];
  incidents: PageIncident[];
}
