import { isSecretHeader } from "../../api";
import { SecretMask } from "../secret-mask";
import type { CheckedMonitor } from "./monitor-fields";

/** A header value shorter than this is not masked on its own (`1`, `gzip`): it would blank common words. */
const HEADER_MIN = 8;

/**
 * The secret parts of a header value: all of it, the credentials after an auth scheme (`Bearer
 * <token>`) and a Basic header's password; of a secret header (`isSecretHeader`) whatever their
 * length, of another header those of 8 characters or more.
 */
function headerSecrets([name, value]: [string, string]): string[] {
  const scheme = /^(?:Bearer|Basic|Token|Digest|ApiKey|GenieKey|Bot)\s+(.+)$/i.exec(value.trim());
  const out = [value];
  if (scheme?.[1]) {
    out.push(scheme[1]);
    // A Basic header's password, decoded: shown in a result as text it must be masked too.
    if (/^basic\s/i.test(value.trim())) {
      const decoded = Buffer.from(scheme[1], "base64").toString("utf8");
      const colon = decoded.indexOf(":");
      if (colon >= 0) out.push(decoded.slice(colon + 1));
    }
  }
  const min = isSecretHeader(name) ? 1 : HEADER_MIN;
  return out.filter((v) => v.length >= min);
}

/**
 * The masker of one monitor's secrets: its `variables` (multistep, browser) whatever their length,
 * and the values of its request headers and its steps' headers (without `{{variables}}`): a secret
 * header's (`isSecretHeader`, the rule reads follow too) whatever their length, any other's of 8
 * characters or more. Every outcome of a check passes through it before it is recorded or answered.
 */
export function monitorMask(monitor: CheckedMonitor): SecretMask {
  const headers = [monitor.headers, ...monitor.steps.map((s) => s.headers)].flatMap((h) => Object.entries(h ?? {}));
  return new SecretMask([
    ...Object.values(monitor.variables ?? {}),
    ...headers.filter(([, v]) => !v.includes("{{")).flatMap(headerSecrets),
  ]);
}
