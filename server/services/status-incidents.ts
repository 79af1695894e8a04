import type {
  ComponentPatch,
  ComponentView,
  CreateIncident,
  Incident,
  IncidentImpact,
  IncidentUpdateBody,
  PatchIncident,
  StatusPage,
} from "../../api";
import { ApiError, notFound, validationFailed } from "../errors";
import type { Store } from "../store";
import type { Principal } from "../store/keys";
import { componentsNow } from "./status-components";

/** What happened to an incident, for those who follow the page (subscribers, feeds). */
export type IncidentEvent = "opened" | "updated" | "resolved";

/** Hears every incident event of every page (subscribers are told through it). */
export type IncidentListener = (page: StatusPage, incident: Incident, event: IncidentEvent) => Promise<void>;

/** Incidents people write on a page, and its manual components' states. */
export class StatusIncidentService {
  constructor(
    private readonly store: Store,
    private readonly listener: IncidentListener = async () => {},
  ) {}

  async list(principal: Principal, pageId: string, which: "open" | "resolved" | "all" = "all"): Promise<Incident[]> {
    const page = await this.page(principal, pageId);
    return await this.store.statusIncidents.list(page.id, which);
  }

  async get(principal: Principal, pageId: string, id: string): Promise<Incident> {
    const page = await this.page(principal, pageId);
    const incident = await this.store.statusIncidents.get(page.id, id);
    if (!incident) throw notFound("incident", id);
    return incident;
  }

  async open(principal: Principal, pageId: string, body: CreateIncident): Promise<Incident> {
    const page = await this.page(principal, pageId);
    const components = checkImpacts(page, body.components ?? {});
    return (await this.openOn(page, {
      title: body.title,
      state: body.state ?? "investigating",
      message: body.message,
      components,
      rule: null,
    })) as Incident;
  }

  /** Opens an incident on the page and tells the listener (rules call this too); undefined when the rule's is open. */
  async openOn(page: StatusPage, spec: Parameters<Store["statusIncidents"]["open"]>[1]): Promise<Incident | undefined> {
    const incident = await this.store.statusIncidents.open(page.id, spec);
    if (incident) await this.listener(page, incident, "opened");
    return incident;
  }

  async update(principal: Principal, pageId: string, id: string, body: IncidentUpdateBody): Promise<Incident> {
    const page = await this.page(principal, pageId);
    const current = await this.get(principal, pageId, id);
    if (current.resolved_at !== null)
      throw new ApiError("conflict", `Incident ${id} is resolved`, [
        { field: "state", message: "the incident is resolved already" },
      ]);
    const components = body.components
      ? checkImpacts(page, body.components)
      : body.state === "resolved"
        ? noImpact(current.components)
        : current.components;
    return (await this.updateOn(page, id, body.state, body.message, components)) as Incident;
  }

  /** Adds an update to an open incident of the page and tells the listener. */
  async updateOn(
    page: StatusPage,
    id: string,
    state: Incident["state"],
    message: string,
    components: Record<string, IncidentImpact>,
  ): Promise<Incident | undefined> {
    const incident = await this.store.statusIncidents.update(page.id, id, state, message, components);
    if (incident) await this.listener(page, incident, state === "resolved" ? "resolved" : "updated");
    return incident;
  }

  async patch(principal: Principal, pageId: string, id: string, body: PatchIncident): Promise<Incident> {
    const current = await this.get(principal, pageId, id);
    if (body.postmortem !== undefined && body.postmortem !== null && current.resolved_at === null) {
      throw validationFailed([{ field: "postmortem", message: "is written once the incident is resolved" }]);
    }
    return (await this.store.statusIncidents.patch(
      current.status_page_id,
      id,
      body.title ?? current.title,
      body.postmortem === undefined ? current.postmortem : body.postmortem,
    )) as Incident;
  }

  async component(principal: Principal, pageId: string, key: string): Promise<ComponentView> {
    const page = await this.page(principal, pageId);
    const now = await componentsNow(this.store, page.id, page.sections);
    const c = now.get(key);
    if (!c) throw notFound("component", key);
    const manual = (await this.store.componentStates.all(page.id)).get(key);
    return {
      key,
      name: c.component.name,
      rule: c.component.rule,
      state: c.state,
      state_set_at: c.component.rule === "manual" ? (manual?.set_at ?? null) : null,
    };
  }

  /**
   * Sets a manual component's state (operational data), or renames a component (its declared
   * structure: the page's next refresh shows the change as drift).
   */
  async patchComponent(
    principal: Principal,
    pageId: string,
    key: string,
    body: ComponentPatch,
  ): Promise<ComponentView> {
    const page = await this.page(principal, pageId);
    const component = page.sections.flatMap((s) => s.components).find((c) => c.key === key);
    if (!component) throw notFound("component", key);
    if (body.state !== undefined) {
      if (component.rule !== "manual")
        throw validationFailed([
          {
            field: "state",
            message: `is set only on a manual component (this one follows its monitors: rule ${component.rule})`,
          },
        ]);
      await this.store.componentStates.set(page.id, key, body.state);
    }
    if (body.name !== undefined || body.description !== undefined) {
      const sections = page.sections.map((s) => ({
        ...s,
        components: s.components.map((c) =>
          c.key === key
            ? {
                ...c,
                name: body.name ?? c.name,
                description: body.description === undefined ? c.description : body.description,
              }
            : c,
        ),
      }));
      await this.store.statusPages.update(principal.accountId, page.id, { ...page, sections });
    }
    return await this.component(principal, pageId, key);
  }

  private async page(principal: Principal, id: string): Promise<StatusPage> {
    const page = await this.store.statusPages.get(principal.accountId, id);
    if (!page) throw notFound("status page", id);
    return page;
  }
}

/** The impacts, each naming a component of the page. */
function checkImpacts(page: StatusPage, impacts: Record<string, IncidentImpact>): Record<string, IncidentImpact> {
  const keys = new Set(page.sections.flatMap((s) => s.components.map((c) => c.key)));
  const details = Object.keys(impacts)
    .filter((k) => !keys.has(k))
    .map((k) => ({ field: `components.${k}`, message: `no component "${k}" on the page` }));
  if (details.length) throw validationFailed(details);
  return Object.fromEntries(Object.entries(impacts).sort(([a], [b]) => (a < b ? -1 : 1)));
}

const noImpact = (c: Record<string, IncidentImpact>): Record<string, IncidentImpact> =>
  Object.fromEntries(Object.keys(c).map((k) => [k, "none" as const]));
