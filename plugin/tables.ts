/**
 * The field table of each kind, read by the schema generator (schema.ts).
 * Provisional: replaced by the tables in `api/` once they land, so that the dynamic resources and
 * the native plugin read one set of rows.
 */
import type { FieldRow, KindTable } from "./fields";

const common = {
  adopt: (prefix: string, label: string): FieldRow => ({
    property: "adopt",
    type: "string",
    description: `Id of an existing ${label} (\`${prefix}_…\`) to take over instead of creating one; on create it is updated to these inputs.`,
  }),
  timestamps: [
    { property: "createdAt", api: "created_at", type: "string", outputOnly: true, description: "When the object was created (ISO 8601)." },
    { property: "updatedAt", api: "updated_at", type: "string", outputOnly: true, description: "When the object was last changed (ISO 8601)." },
    { property: "endpoint", type: "string", outputOnly: true, description: "Base URL of the service that holds the object." },
  ] satisfies FieldRow[],
};

const monitor: KindTable = {
  name: "Monitor",
  description: "An uptime monitor: the service probes `url` every `intervalSec` seconds.",
  fields: [
    { property: "name", api: "name", type: "string", description: "Display name, 1..120 characters. Defaults to the resource's name." },
    { property: "type", api: "type", type: "string", required: true, replaceOnChange: true, description: "`http`, `keyword` or `tcp`. Changing it replaces the monitor." },
    { property: "url", api: "url", type: "string", required: true, description: "`http(s)://…` for http and keyword monitors, `tcp://host:port` for tcp." },
    { property: "intervalSec", api: "interval_sec", type: "integer", required: true, description: "Seconds between checks, 30..86400." },
    { property: "timeoutSec", api: "timeout_sec", type: "integer", default: 10, description: "Seconds a check may take, 1..60 and less than `intervalSec`." },
    { property: "method", api: "method", type: "string", default: "GET", description: "HTTP method of the probe." },
    { property: "headers", api: "headers", type: "string-map", secret: true, description: "Request headers (at most 50); names compare case-insensitively. Stored as a secret." },
    { property: "body", api: "body", type: "string", secret: true, description: "Request body, only with POST, PUT, PATCH or DELETE. Stored as a secret." },
    { property: "expectedStatusCodes", api: "expected_status_codes", type: "status-codes", description: "Status codes or classes that count as up, e.g. `[200, \"3xx\"]`; a set. Default `[\"2xx\", \"3xx\"]`." },
    { property: "keyword", api: "keyword", type: "string", description: "Text the response must contain: required for `keyword` monitors, forbidden for others." },
    { property: "keywordCaseSensitive", api: "keyword_case_sensitive", type: "boolean", default: false, description: "Whether `keyword` matches case-sensitively." },
    { property: "followRedirects", api: "follow_redirects", type: "boolean", default: true, description: "Whether probes follow redirects." },
    { property: "channelIds", api: "channel_ids", type: "string[]", description: "Channels notified when the monitor goes down or comes back; a set." },
    { property: "tags", api: "tags", type: "string[]", description: "Free labels, compared case-insensitively; a set." },
    { property: "paused", type: "boolean", default: false, description: "Pause checks (true) or keep them running (false)." },
    common.adopt("mon", "monitor"),
    { property: "status", api: "status", type: "string", outputOnly: true, description: "`active` or `paused`, as the service reports it." },
    { property: "health", api: "health", type: "string", outputOnly: true, description: "`pending` until the first check, then `up` or `down` (as of the last refresh)." },
    { property: "lastCheckedAt", api: "last_checked_at", type: "string", outputOnly: true, description: "When the last check ran (ISO 8601)." },
    ...common.timestamps,
  ],
};

const channel: KindTable = {
  name: "Channel",
  description: "A notification channel: where a monitor's `monitor.down` and `monitor.up` events go.",
  fields: [
    { property: "name", api: "name", type: "string", description: "Display name, 1..120 characters. Defaults to the resource's name." },
    { property: "type", api: "type", type: "string", required: true, replaceOnChange: true, description: "`webhook`, `slack` or `email`. Changing it replaces the channel." },
    { property: "config", api: "config", type: "string-map", required: true, secret: true, description: "Depends on `type`: webhook `url` and optional `secret`; slack `webhookUrl`; email `address`. Stored as a secret." },
    common.adopt("chn", "channel"),
    { property: "configFingerprint", api: "config_fingerprint", type: "string", outputOnly: true, description: "The service's fingerprint of the config, compared instead of the masked config." },
    ...common.timestamps,
  ],
};

const statusPage: KindTable = {
  name: "StatusPage",
  description: "A public status page listing monitors by name and health.",
  fields: [
    { property: "slug", api: "slug", type: "string", required: true, description: "3..64 characters of a-z, 0-9 and -; unique on the service." },
    { property: "title", api: "title", type: "string", required: true, description: "Title shown on the page, 1..120 characters." },
    { property: "description", api: "description", type: "string", description: "Optional text under the title." },
    { property: "monitorIds", api: "monitor_ids", type: "string[]", description: "Monitors shown on the page; a set." },
    common.adopt("sp", "status page"),
    { property: "publicUrl", type: "string", outputOnly: true, description: "URL of the public status document (no key needed)." },
    ...common.timestamps,
  ],
};

/** Every kind the native plugin serves, in schema order. */
export const KIND_TABLES: readonly KindTable[] = [monitor, channel, statusPage];
