import {
  type CreateStatusPage,
  type ErrorDetail,
  type ListQuery,
  normalizeSet,
  type StatusDocument,
  type StatusPage,
  type UpdateStatusPage,
} from "../../api";
import { ApiError, notFound, validationFailed } from "../errors";
import type { Store } from "../store";
import type { Principal } from "../store/keys";
import type { StatusPageSpec } from "../store/status-pages";
import { assertExternalIdFree } from "./external-ids";
import { type ListPage, listPage } from "./paging";
import { statusDocument } from "./status-document";
import { type StatusPageView, statusPageView } from "./status-html";

/** Status pages of an account, and the public document of each. */
export class StatusPageService {
  constructor(private readonly store: Store) {}

  async list(principal: Principal, query: ListQuery): Promise<ListPage<StatusPage>> {
    return await listPage(async () => await this.store.statusPages.list(principal.accountId, query.limit, query.cursor));
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

  /** What the HTML page of `slug` shows (no key). */
  async page(slug: string): Promise<StatusPageView> {
    return await statusPageView(this.store, slug);
  }
}

async function check(store: Store, accountId: string, spec: StatusPageSpec, exceptId?: string): Promise<void> {
  const existing = await store.statusPages.existingMonitors(accountId, spec.monitor_ids);
  const details: ErrorDetail[] = [];
  spec.monitor_ids.forEach((id, i) => {
    if (!existing.has(id))
      details.push({ field: `monitor_ids[${i}]`, message: `monitor ${id} does not exist` });
  });
  if (details.length) throw validationFailed(details);
  if (await store.statusPages.slugTaken(spec.slug, exceptId)) {
    throw new ApiError("conflict", `Status page slug "${spec.slug}" is taken`, [
      { field: "slug", message: "is already taken" },
    ]);
  }
}

async function getStatusPage(store: Store, accountId: string, id: string): Promise<StatusPage> {
  const page = await store.statusPages.get(accountId, id);
  if (!page) throw notFound("status page", id);
  return page;
}

async function createStatusPage(store: Store, accountId: string, body: CreateStatusPage): Promise<StatusPage> {
  const spec: StatusPageSpec = {
    slug: body.slug,
    title: body.title,
    description: body.description ?? null,
    monitor_ids: normalizeSet(body.monitor_ids ?? []),
  };
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
  const spec: StatusPageSpec = {
    slug: body.slug ?? current.slug,
    title: body.title ?? current.title,
    description: body.description === undefined ? current.description : body.description,
    monitor_ids: normalizeSet(body.monitor_ids ?? current.monitor_ids),
  };
  await check(store, accountId, spec, id);
  await assertExternalIdFree(store, "status_pages", accountId, body.external_id, id);
  return await store.statusPages.update(accountId, id, spec, body.external_id) as StatusPage;
}
