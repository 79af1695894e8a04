import type { ErrorClass } from "../../api";

const DNS = new Set(["ENOTFOUND", "EAI_AGAIN", "EAI_FAIL", "EAI_NONAME", "ENODATA", "ESERVFAIL", "ENOTIMP", "EREFUSED"]);
const TIMEOUT = new Set(["ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/**
 * The class of a failed request, from its error code (Node's, undici's, OpenSSL's): `dns`,
 * `timeout`, `tls` (certificates, handshakes) or `connect` (everything else that failed before a
 * response, a refused destination included).
 */
export function errorClassOf(err: Error & { code?: string; cause?: unknown }): ErrorClass {
  const code = err.code ?? (err.cause as { code?: string } | undefined)?.code ?? "";
  if (DNS.has(code)) return "dns";
  if (TIMEOUT.has(code) || err.name === "TimeoutError") return "timeout";
  if (/CERT|TLS|SSL|SELF_SIGNED|VERIFY|HOSTNAME_MISMATCH/i.test(code)) return "tls";
  return "connect";
}
