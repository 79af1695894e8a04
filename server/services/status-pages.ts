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

  list(principal: Principal, query: ListQuery): ListPage<StatusPage> {
    return listPage(() => this.store.statusPages.list(principal.accountId, query.limit, query.cursor));
  }

  get(principal: Principal, id: string): StatusPage {
    return getStatusPage(this.store, principal.accountId, id);
  }

  create(principal: Principal, body: CreateStatusPage): StatusPage {
    return createStatusPage(this.store, principal.accountId, body);
  }

  update(principal: Principal, id: string, body: UpdateStatusPage): StatusPage {
    return updateStatusPage(this.store, principal.accountId, id, body);
  }

  delete(principal: Principal, id: string): StatusPage {
    const page = this.store.statusPages.delete(principal.accountId, id);
    if (!page) throw notFound("status page", id);
    return page;
  }

  /** The public document of the page at `slug` (no key). */
  document(slug: string): StatusDocument {
    return statusDocument(this.store, slug);
  }

  /** What the HTML page of `slug` shows (no key). */
  page(slug: string): StatusPageView {
    return statusPageView(this.store, slug);
  }
}

function check(store: Store, accountId: string, spec: StatusPageSpec, exceptId?: string): void {
  const existing = store.statusPages.existingMonitors(accountId, spec.monitor_ids);
  const details: ErrorDetail[] = [];
  spec.monitor_ids.forEach((id, i) => {
    if (!existing.has(id))
      details.push({ field: `monitor_ids[${i}]`, message: `monitor ${id} does not exist` });
  });
  if (details.length) throw validationFailed(details);
  if (store.statusPages.slugTaken(spec.slug, exceptId)) {
    throw new ApiError("conflict", `Status page slug "${spec.slug}" is taken`, [
      { field: "slug", message: "is already taken" },
    ]);
  }
}

function getStatusPage(store: Store, accountId: string, id: string): StatusPage {
  const page = store.statusPages.get(accountId, id);
  if (!page) throw notFound("status page", id);
  return page;
}

function createStatusPage(store: Store, accountId: string, body: CreateStatusPage): StatusPage {
  const spec: StatusPageSpec = {
    slug: body.slug,
    title: body.title,
    description: body.description ?? null,
    monitor_ids: normalizeSet(body.monitor_ids ?? []),
  };
  check(store, accountId, spec);
  assertExternalIdFree(store, "status_pages", accountId, body.external_id);
  return store.statusPages.create(accountId, spec, body.external_id ?? null);
}

function updateStatusPage(
  store: Store,
  accountId: string,
  id: string,
  body: UpdateStatusPage,
): StatusPage {
  const current = getStatusPage(store, accountId, id);
  const spec: StatusPageSpec = {
    slug: body.slug ?? current.slug,
    title: body.title ?? current.title,
    description: body.description === undefined ? current.description : body.description,
    monitor_ids: normalizeSet(body.monitor_ids ?? current.monitor_ids),
  };
  check(store, accountId, spec, id);
  assertExternalIdFree(store, "status_pages", accountId, body.external_id, id);
  return store.statusPages.update(accountId, id, spec, body.external_id) as StatusPage;
}
