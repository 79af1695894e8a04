import type { ErrorClass } from "../../api";

const DNS = new Set([
  "ENOTFOUND",
  "EAI_AGAIN",
  "EAI_FAIL",
  "EAI_NONAME",
  "ENODATA",
  "ESERVFAIL",
  "ENOTIMP",
  "EREFUSED",
]);
const TIMEOUT = new Set(["ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT"]);

/**
 * Failures the target answered (an HTTP status to a WebSocket handshake, a close frame, a gRPC
 * status, an RDAP answer) or the check itself decided: verdicts, not network failures, so
 * `retry.trigger: "network"` does not retry them. By the codes the protocols' probes give them.
 */
const ANSWERED: Readonly<Record<string, ErrorClass>> = {
  WS_HANDSHAKE: "http",
  WS_CLOSED: "assertion",
  RDAP_NOT_FOUND: "http",
  RDAP_STATUS: "http",
  RDAP_BAD_ANSWER: "http",
  RDAP_TOO_LARGE: "http",
  RDAP_BOOTSTRAP: "http",
  RDAP_NO_SERVICE: "assertion",
};

/**
 * The class of a failed request, from its error code (Node's, undici's, OpenSSL's, the protocols'
 * own): `dns`, `timeout`, `tls` (certificates, handshakes), `http` or `assertion` for what the
 * target answered (a gRPC status, `GRPC_<STATUS>`, is an answer too), or `connect` (everything
 * else that failed before an answer, a refused destination included).
 */
export function errorClassOf(err: Error & { code?: string; cause?: unknown }): ErrorClass {
  const code = err.code ?? (err.cause as { code?: string } | undefined)?.code ?? "";
  if (DNS.has(code)) return "dns";
  if (TIMEOUT.has(code) || err.name === "TimeoutError") return "timeout";
  if (/CERT|TLS|SSL|SELF_SIGNED|VERIFY|HOSTNAME_MISMATCH/i.test(code)) return "tls";
  const answered = ANSWERED[code] ?? (code.startsWith("GRPC_") ? "http" : undefined);
  return answered ?? "connect";
}
