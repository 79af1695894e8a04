import {
  type CreateStatusPage,
  type ErrorDetail,
  type Incident,
  type ListQuery,
  normalizeIncidentRules,
  normalizeSections,
  normalizeSet,
  type StatusDocument,
  type StatusPage,
  type StoredIncidentRule,
  type StoredSection,
  structureIssues,
  type UpdateStatusPage,
} from "../../api";
import { ApiError, notFound, validationFailed } from "../errors";
import type { Store } from "../store";
import type { Principal } from "../store/keys";
import { EMPTY_STRUCTURE, type PrivateStatusPage, type StatusPageSpec } from "../store/status-pages";
import { accessToken, addressAllowed, hashPassword, passwordMatches, tokenMatches } from "./status-access";
import { badgeOf } from "./status-badges";
import { assertExternalIdFree } from "./external-ids";
import { type ListPage, listPage } from "./paging";
import { statusDocument } from "./status-document";
import { statusPageView } from "./status-html";
import { renderStatusPage } from "../html/status-page";
import { answerExpiry, MAX_KEEP_MS } from "./status-expiry";
import { type PageAnswer, pageAnswer } from "./page-answer";
import { ViewCache } from "./view-cache";

/** Status pages of an account, and the public document of each. */
export class StatusPageService {
  /** Pages by slug and by custom domain (and the misses), until a write to what pages show. */
  private readonly pages: ViewCache<PrivateStatusPage | undefined>;
  /** Each page's answers (HTML per base, JSON), until a write or until what they show moves with time. */
  private readonly answers: ViewCache<PageAnswer>;

  constructor(private readonly store: Store) {
    this.pages = new ViewCache(store.pageChanges);
    this.answers = new ViewCache(store.pageChanges);
  }

  async list(principal: Principal, query: ListQuery): Promise<ListPage<StatusPage>> {
    return await listPage(
      async () => await this.store.statusPages.list(principal.accountId, query.limit, query.cursor),
    );
  }

  async get(principal: Principal, id: string): Promise<StatusPage> {
    return await getStatusPage(this.store, principal.accountId, id);
  }

  async create(principal: Principal, body: CreateStatusPage): Promise<StatusPage> {
    return await createStatusPage(this.store, principal.accountId, body);
  }

  async update(principal: Principal, id: string, body: UpdateStatusPage): Promise<StatusPage> {
    return await updateStatusPage(this.store, principal.accountId, id, body);
  }

  async delete(principal: Principal, id: string): Promise<StatusPage> {
    const page = await this.store.statusPages.delete(principal.accountId, id);
    if (!page) throw notFound("status page", id);
    return page;
  }

  /** The public document of the page at `slug` (no key). */
  async document(slug: string): Promise<StatusDocument> {
    return await statusDocument(this.store, slug);
  }

  /**
   * The public document of `slug` as `serialize` writes it, computed once per write to what pages
   * show (or once its time-bound facts move). Callers check access first: the cache does not.
   */
  async documentAnswer(slug: string, serialize: (doc: StatusDocument) => string): Promise<PageAnswer> {
    return await this.answers.get(`json ${slug}`, async (now, previous) => {
      const monitors = await this.shownMonitors(slug);
      const doc = await statusDocument(this.store, slug, now);
      return { value: pageAnswer(serialize(doc), now, previous), expires: answerExpiry(now, doc), monitors };
    });
  }

  /**
   * The page at `slug` and its document's answer (or, with `base`, its HTML answer with links
   * under `base`) when both are kept and hold: one look at the store's commits, nothing computed,
   * which is what most requests for a busy page find. Else undefined (`publicPage` and
   * `documentAnswer` or `pageAnswer` then compute what is missing). Callers check access first.
   */
  async keptAnswer(slug: string, base?: string): Promise<{ page: PrivateStatusPage; answer: PageAnswer } | undefined> {
    await this.store.pageChanges.current();
    const page = this.pages.kept(`slug ${slug}`)?.value;
    const answer = page && this.answers.kept(base === undefined ? `json ${slug}` : `html ${slug} ${base}`)?.value;
    return page && answer ? { page, answer } : undefined;
  }

  /** The HTML page of `slug` with its links under `base`, cached as `documentAnswer` is. */
  async pageAnswer(slug: string, base: string): Promise<PageAnswer> {
    return await this.answers.get(`html ${slug} ${base}`, async (now, previous) => {
      const monitors = await this.shownMonitors(slug);
      const view = await statusPageView(this.store, slug, now);
      return {
        value: pageAnswer(renderStatusPage(view, { base }), now, previous),
        expires: answerExpiry(now, { maintenance: view.maintenance, incidents: view.statusIncidents }),
        monitors,
      };
    });
  }

  /**
   * The monitors the page at `slug` shows (its own and its components'), read before its answer
   * is: the answer is computed again after a write to one of them, and not after writes to other
   * monitors. A change of which monitors it shows is a write to the page, which every answer follows.
   */
  private async shownMonitors(slug: string): Promise<string[]> {
    const page = await this.publicPage({ slug });
    return page ? monitorsOf(page) : [];
  }

  /** The page at a slug or served at a custom domain, with its access rules (no key); undefined when none. */
  async publicPage(where: { slug: string } | { domain: string }): Promise<PrivateStatusPage | undefined> {
    const key = "slug" in where ? `slug ${where.slug}` : `domain ${where.domain}`;
    return await this.pages.get(key, async (now) => {
      const page =
        "slug" in where
          ? await this.store.statusPages.bySlug(where.slug)
          : await this.store.statusPages.byDomain(where.domain);
      // Its monitors: deleting one takes it off the page.
      return { value: page, expires: now + MAX_KEEP_MS, monitors: page ? monitorsOf(page) : [] };
    });
  }

  /**
   * Whether a viewer may see the page: anyone when it is public; from an allowed address range;
   * or with the page's access cookie (given for its password). `challenge`: ask for the password.
   */
  access(page: PrivateStatusPage, ip: string, cookie: string | undefined): "allowed" | "challenge" | "refused" {
    if (!page.password_hash && page.allowed_cidrs.length === 0) return "allowed";
    if (page.allowed_cidrs.length && addressAllowed(ip, page.allowed_cidrs)) return "allowed";
    if (!page.password_hash) return "refused";
    return tokenMatches(this.accessToken(page) as string, cookie) ? "allowed" : "challenge";
  }

  /** The cookie value a viewer gets for the page's password; undefined for a wrong one (or a page without). */
  login(page: PrivateStatusPage, password: string): string | undefined {
    if (!page.password_hash || !passwordMatches(page.password_hash, password)) return undefined;
    return this.accessToken(page);
  }

  private accessToken(page: PrivateStatusPage): string | undefined {
    return page.password_hash ? accessToken((d) => this.store.secrets.mac(d), page.id, page.password_hash) : undefined;
  }

  /** The page's incidents, newest first (its history, permalinks and feed). */
  async incidents(page: PrivateStatusPage): Promise<Incident[]> {
    return await this.store.statusIncidents.list(page.id, "all", 200);
  }

  /** A badge of a component's (or the page's) state or 30-day uptime. */
  async badge(
    page: PrivateStatusPage,
    key: string | null,
    kind: "state" | "uptime",
  ): Promise<{ label: string; value: string; colour: string } | undefined> {
    return await badgeOf(this.store, page, key, kind);
  }
}

/** Every monitor a page shows: its own and its components'. */
function monitorsOf(page: StatusPage): string[] {
  return [...page.monitor_ids, ...page.sections.flatMap((s) => s.components.flatMap((c) => c.monitors))];
}

async function check(store: Store, accountId: string, spec: StatusPageSpec, exceptId?: string): Promise<void> {
  const componentMonitors = spec.sections.flatMap((s) => s.components.flatMap((c) => c.monitors));
  const existing = await store.statusPages.existingMonitors(accountId, [
    ...new Set([...spec.monitor_ids, ...componentMonitors]),
  ]);
  const details: ErrorDetail[] = [];
  spec.monitor_ids.forEach((id, i) => {
    if (!existing.has(id)) details.push({ field: `monitor_ids[${i}]`, message: `monitor ${id} does not exist` });
  });
  spec.sections.forEach((s, i) =>
    s.components.forEach((c, j) =>
      c.monitors.forEach((id, k) => {
        if (!existing.has(id))
          details.push({
            field: `sections[${i}].components[${j}].monitors[${k}]`,
            message: `monitor ${id} does not exist`,
          });
      }),
    ),
  );
  details.push(...structureIssues(spec.sections, spec.incident_rules));
  if (details.length) throw validationFailed(details);
  if (await store.statusPages.slugTaken(spec.slug, exceptId)) {
    throw new ApiError("conflict", `Status page slug "${spec.slug}" is taken`, [
      { field: "slug", message: "is already taken" },
    ]);
  }
  if (spec.custom_domain !== null && (await store.statusPages.domainTaken(spec.custom_domain, exceptId))) {
    throw new ApiError("conflict", `Custom domain "${spec.custom_domain}" is served by another status page`, [
      { field: "custom_domain", message: "is already taken" },
    ]);
  }
}

async function getStatusPage(store: Store, accountId: string, id: string): Promise<StatusPage> {
  const page = await store.statusPages.get(accountId, id);
  if (!page) throw notFound("status page", id);
  return page;
}

/** The stored spec: the body's fields over `current` (or the defaults), with normal forms taken. */
function toSpec(body: UpdateStatusPage, current: StatusPage | undefined): StatusPageSpec {
  const base = current ?? {
    ...EMPTY_STRUCTURE,
    slug: "",
    title: "",
    description: null,
    monitor_ids: [],
    custom_domain: null,
  };
  return {
    slug: body.slug ?? base.slug,
    title: body.title ?? base.title,
    description: body.description === undefined ? base.description : body.description,
    monitor_ids: normalizeSet(body.monitor_ids ?? base.monitor_ids),
    sections: normalizeSections(body.sections ?? base.sections) as StoredSection[],
    incident_rules: normalizeIncidentRules(body.incident_rules ?? base.incident_rules) as StoredIncidentRule[],
    custom_domain: body.custom_domain === undefined ? base.custom_domain : body.custom_domain,
    allowed_cidrs: normalizeSet(body.allowed_cidrs ?? base.allowed_cidrs),
    locale: body.locale ?? base.locale,
    logo_url: body.logo_url === undefined ? base.logo_url : body.logo_url,
    brand_color: body.brand_color === undefined ? base.brand_color : body.brand_color,
    password_hash:
      body.password === undefined ? undefined : body.password === null ? null : hashPassword(body.password),
  };
}

async function createStatusPage(store: Store, accountId: string, body: CreateStatusPage): Promise<StatusPage> {
  const spec = toSpec(body, undefined);
  await check(store, accountId, spec);
  await assertExternalIdFree(store, "status_pages", accountId, body.external_id);
  return await store.statusPages.create(accountId, spec, body.external_id ?? null);
}

async function updateStatusPage(
  store: Store,
  accountId: string,
  id: string,
  body: UpdateStatusPage,
): Promise<StatusPage> {
  const current = await getStatusPage(store, accountId, id);
  const spec = toSpec(body, current);
  await check(store, accountId, spec, id);
  await assertExternalIdFree(store, "status_pages", accountId, body.external_id, id);
  return (await store.statusPages.update(accountId, id, spec, body.external_id)) as StatusPage;
}
