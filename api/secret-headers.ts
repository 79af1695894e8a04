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
