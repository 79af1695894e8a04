/**
 * The words that make a request header a credential: `Authorization`, `Proxy-Authorization`,
 * `Cookie`, and any name containing `auth`, `key`, `token`, `secret`, `password`, `passwd`,
 * `signature`, `session` or `credential` (`X-Api-Key`, `X-Auth-Token`, `X-Client-Secret`).
 */
const SECRET_HEADER_NAME =
  /^(?:authorization|proxy-authorization|cookie)$|auth|key|token|secret|passw(?:or)?d|signature|session|credential/i;

/**
 * Whether a request header (a monitor's `headers`, a step's `headers`) is secret: the one rule the
 * API's reads (a fingerprint in place of the value) and the results' masking (the value masked
 * whatever its length) both follow. It goes by the name only.
 */
export function isSecretHeader(name: string): boolean {
  return SECRET_HEADER_NAME.test(name);
}

/** A secret's fingerprint as reads show it: no credential itself. */
const FINGERPRINT = /^hmac-sha256:[0-9a-f]{64}$/;
/** `{{name}}` uses of variables, and the scheme word an Authorization value starts with. */
const TEMPLATE = /\{\{[^{}]*\}\}/g;
const SCHEME = /^\s*(?:bearer|basic|token|digest|apikey|negotiate)\b/i;

/**
 * Whether multi-step `steps` (as a program writes them) hold a credential written as plain text: a
 * secret header (by name) whose value is more than `{{variables}}` and a scheme word (`Bearer
 * {{token}}` is none; `Bearer abc123` is one). Such steps are stored as a secret in the state.
 * Values not yet known (a program's outputs) are not strings, and count as none: a secret output
 * stays secret inside the steps by itself.
 */
export function stepsHoldPlainCredential(steps: unknown): boolean {
  if (!Array.isArray(steps)) return false;
  return steps.some((step) => {
    const headers = (step as { headers?: unknown } | null)?.headers;
    if (!headers || typeof headers !== "object") return false;
    return Object.entries(headers as Record<string, unknown>).some(
      ([name, value]) =>
        isSecretHeader(name) &&
        typeof value === "string" &&
        !FINGERPRINT.test(value) &&
        value.replace(TEMPLATE, "").replace(SCHEME, "").trim() !== "",
    );
  });
}
