import { LRUCache } from "lru-cache";
import { getDomain } from "tldts";
import { request } from "undici";
import type { ProbeContext } from "../probe";

/** IANA's bootstrap file of RDAP services by top-level domain (RFC 9224). */
export const IANA_RDAP_BOOTSTRAP_URL = "https://data.iana.org/rdap/dns.json";

/** How long a bootstrap file and a registration's expiry are reused: both change rarely, RDAP servers rate-limit. */
const BOOTSTRAP_TTL_MS = 24 * 3_600_000;
const EXPIRY_TTL_MS = 3_600_000;
/** The most of an RDAP answer read. */
const MAX_BYTES = 2 * 1024 * 1024;

/** What RDAP says of one registration. */
export interface DomainRegistration {
  domain: string;
  /** The `expiration` event's date; null when the registry publishes none. */
  expires_at: string | null;
  /** The RDAP service asked. */
  rdap_url: string;
}

type Services = [string[], string[]][];
const bootstraps = new LRUCache<string, { services: Services }>({ max: 8, ttl: BOOTSTRAP_TTL_MS });
const registrations = new LRUCache<string, DomainRegistration>({ max: 10_000, ttl: EXPIRY_TTL_MS });

/** The registrable domain of a host (`www.shop.example.co.uk` → `example.co.uk`), by the public suffix list. */
export function registrableDomain(host: string): string | undefined {
  return getDomain(host.replace(/^\[|\]$/g, ""), { allowPrivateDomains: false }) ?? undefined;
}

/** GETs JSON through the probe's dispatcher (so the outbound policy applies to every RDAP call). */
async function getJson(ctx: ProbeContext, url: string, timeoutMs: number): Promise<{ status: number; body: unknown }> {
  const res = await request(url, {
    dispatcher: ctx.follow,
    headers: { accept: "application/rdap+json, application/json" },
    headersTimeout: timeoutMs,
    bodyTimeout: timeoutMs,
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.body.text();
  if (text.length > MAX_BYTES)
    throw Object.assign(new Error(`the RDAP answer of ${url} is larger than ${MAX_BYTES} bytes`), {
      code: "RDAP_TOO_LARGE",
    });
  try {
    return { status: res.statusCode, body: res.statusCode === 404 ? null : JSON.parse(text) };
  } catch {
    throw Object.assign(new Error(`${url} answered ${res.statusCode} with no JSON`), { code: "RDAP_BAD_ANSWER" });
  }
}

/** The RDAP base URL serving `domain`'s top-level domain, from the bootstrap file (the longest matching entry). */
async function baseUrlOf(ctx: ProbeContext, bootstrapUrl: string, domain: string, timeoutMs: number): Promise<string> {
  let file = bootstraps.get(bootstrapUrl);
  if (!file) {
    const { status, body } = await getJson(ctx, bootstrapUrl, timeoutMs);
    const services = (body as { services?: unknown } | null)?.services;
    if (status !== 200 || !Array.isArray(services))
      throw Object.assign(new Error(`the RDAP bootstrap file ${bootstrapUrl} answered ${status} without services`), {
        code: "RDAP_BOOTSTRAP",
      });
    file = { services: services as Services };
    bootstraps.set(bootstrapUrl, file);
  }
  const labels = domain.toLowerCase().split(".");
  for (let i = 1; i < labels.length; i++) {
    const suffix = labels.slice(i).join(".");
    const service = file.services.find(([tlds]) => tlds.some((t) => t.toLowerCase() === suffix));
    const urls = service?.[1] ?? [];
    const base = urls.find((u) => u.startsWith("https://")) ?? urls[0];
    if (base) return base.endsWith("/") ? base : `${base}/`;
  }
  throw Object.assign(new Error(`no RDAP service for .${labels.at(-1)} in the bootstrap file`), {
    code: "RDAP_NO_SERVICE",
  });
}

/** The registration of `domain` by RDAP: the base URL from the bootstrap, then `domain/<name>`; cached an hour. */
export async function lookupRegistration(
  ctx: ProbeContext,
  bootstrapUrl: string,
  domain: string,
  timeoutMs: number,
): Promise<DomainRegistration> {
  const key = `${bootstrapUrl} ${domain.toLowerCase()}`;
  const cached = registrations.get(key);
  if (cached) return cached;
  const rdap_url = `${await baseUrlOf(ctx, bootstrapUrl, domain, timeoutMs)}domain/${encodeURIComponent(domain.toLowerCase())}`;
  const { status, body } = await getJson(ctx, rdap_url, timeoutMs);
  if (status === 404)
    throw Object.assign(new Error(`${domain} is not registered (RDAP answered 404)`), { code: "RDAP_NOT_FOUND" });
  if (status !== 200) throw Object.assign(new Error(`RDAP answered ${status} for ${domain}`), { code: "RDAP_STATUS" });
  const events = (body as { events?: { eventAction?: string; eventDate?: string }[] }).events ?? [];
  const date = events.find((e) => e.eventAction === "expiration")?.eventDate;
  const at = date === undefined ? NaN : Date.parse(date);
  const found = {
    domain: domain.toLowerCase(),
    expires_at: Number.isNaN(at) ? null : new Date(at).toISOString(),
    rdap_url,
  };
  registrations.set(key, found);
  return found;
}
