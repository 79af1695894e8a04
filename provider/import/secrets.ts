/**
 * Which live fields an imported program reads from secret stack config instead of writing them
 * into code. Kept in this one place: channel config values the API masks, and the monitor fields
 * the provider stores as secrets (headers, body), which the API returns but code must not hold.
 */

/** Channel config keys (API spelling) the API masks, per channel type. */
export const MASKED_CHANNEL_CONFIG: Readonly<Record<string, readonly string[]>> = {
  webhook: ["url", "secret"],
  slack: ["webhook_url"],
  email: [],
};

/** Monitor fields (API spelling) kept out of code: header values and the request body. */
export const SECRET_MONITOR_FIELDS = ["headers", "body"] as const;
