/** Schema migrations, applied in order at start; never edit one that has shipped, add another. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE accounts (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    monitor_limit INTEGER,
    created_at TEXT NOT NULL
  );
  CREATE TABLE api_keys (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT,
    lookup TEXT NOT NULL UNIQUE,
    hash BLOB NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
  );
  CREATE TABLE monitors (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    spec TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('active', 'paused')),
    health TEXT NOT NULL CHECK (health IN ('pending', 'up', 'down')),
    last_checked_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX monitors_by_account ON monitors (account_id, created_at, id);
  CREATE TABLE channels (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    config TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX channels_by_account ON channels (account_id, created_at, id);
  CREATE TABLE monitor_channels (
    monitor_id TEXT NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    PRIMARY KEY (monitor_id, channel_id)
  );
  CREATE INDEX monitor_channels_by_channel ON monitor_channels (channel_id);
  CREATE TABLE status_pages (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    slug TEXT NOT NULL UNIQUE,
    title TEXT NOT NULL,
    description TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX status_pages_by_account ON status_pages (account_id, created_at, id);
  CREATE TABLE status_page_monitors (
    status_page_id TEXT NOT NULL REFERENCES status_pages(id) ON DELETE CASCADE,
    monitor_id TEXT NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
    PRIMARY KEY (status_page_id, monitor_id)
  );
  CREATE INDEX status_page_monitors_by_monitor ON status_page_monitors (monitor_id);
  CREATE TABLE heartbeats (
    id TEXT PRIMARY KEY,
    monitor_id TEXT NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
    checked_at INTEGER NOT NULL,
    up INTEGER NOT NULL,
    response_time_ms INTEGER,
    status_code INTEGER,
    error TEXT
  );
  -- Covering: the 24-hour uptime reads these columns only.
  CREATE INDEX heartbeats_by_monitor ON heartbeats (monitor_id, checked_at, up);
  -- Daily roll-up of heartbeats (UTC days), kept in the same transaction as each heartbeat.
  CREATE TABLE heartbeat_days (
    monitor_id TEXT NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
    day INTEGER NOT NULL,
    checks INTEGER NOT NULL,
    up_checks INTEGER NOT NULL,
    timed INTEGER NOT NULL,
    sum_ms INTEGER NOT NULL,
    histogram TEXT NOT NULL,
    PRIMARY KEY (monitor_id, day)
  ) WITHOUT ROWID;
  CREATE TABLE incidents (
    id TEXT PRIMARY KEY,
    monitor_id TEXT NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
    started_at INTEGER NOT NULL,
    ended_at INTEGER
  );
  CREATE INDEX incidents_by_monitor ON incidents (monitor_id, started_at);
  CREATE TABLE idempotency_keys (
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    status_code INTEGER NOT NULL,
    response TEXT NOT NULL,
    created_at INTEGER NOT NULL,
    PRIMARY KEY (account_id, key)
  );
  CREATE TABLE outbox (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    channel_id TEXT,
    recipient TEXT NOT NULL,
    subject TEXT NOT NULL,
    body TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  `,
  // Version 2: `external_id`, a client's mark on each object, unique per account and kind.
  `
  ALTER TABLE monitors ADD COLUMN external_id TEXT;
  ALTER TABLE channels ADD COLUMN external_id TEXT;
  ALTER TABLE status_pages ADD COLUMN external_id TEXT;
  CREATE UNIQUE INDEX monitors_by_external_id ON monitors (account_id, external_id) WHERE external_id IS NOT NULL;
  CREATE UNIQUE INDEX channels_by_external_id ON channels (account_id, external_id) WHERE external_id IS NOT NULL;
  CREATE UNIQUE INDEX status_pages_by_external_id ON status_pages (account_id, external_id) WHERE external_id IS NOT NULL;
  `,
  // Version 3: heartbeat (push) monitors, certificate expiry, alert confirmation, maintenance windows.
  `
  ALTER TABLE heartbeats ADD COLUMN maintenance INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE heartbeats ADD COLUMN cert_expires_at INTEGER;
  -- Still covering for the 24-hour uptime, which leaves maintenance checks out.
  DROP INDEX heartbeats_by_monitor;
  CREATE INDEX heartbeats_by_monitor ON heartbeats (monitor_id, checked_at, up, maintenance);
  ALTER TABLE heartbeat_days ADD COLUMN maintenance_checks INTEGER NOT NULL DEFAULT 0;
  -- Consecutive failed and passed checks, for confirmations.
  CREATE TABLE check_streaks (
    monitor_id TEXT PRIMARY KEY REFERENCES monitors(id) ON DELETE CASCADE,
    failures INTEGER NOT NULL,
    successes INTEGER NOT NULL
  ) WITHOUT ROWID;
  -- Push tokens are kept as SHA-256 digests only; the URL is shown once, at creation.
  CREATE TABLE push_tokens (
    monitor_id TEXT PRIMARY KEY REFERENCES monitors(id) ON DELETE CASCADE,
    digest TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL
  );
  CREATE TABLE maintenance_windows (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    spec TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
  );
  CREATE INDEX maintenance_windows_by_account ON maintenance_windows (account_id, created_at, id);
  CREATE TABLE maintenance_window_monitors (
    window_id TEXT NOT NULL REFERENCES maintenance_windows(id) ON DELETE CASCADE,
    monitor_id TEXT NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
    PRIMARY KEY (window_id, monitor_id)
  );
  CREATE INDEX maintenance_window_monitors_by_monitor ON maintenance_window_monitors (monitor_id);
  `,
  // Version 4: degraded checks (slow but up) and why a check failed.
  `
  ALTER TABLE heartbeats ADD COLUMN degraded INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE heartbeats ADD COLUMN error_class TEXT;
  -- JSON: { assertions, timings } of the check.
  ALTER TABLE heartbeats ADD COLUMN details TEXT;
  ALTER TABLE heartbeat_days ADD COLUMN degraded_checks INTEGER NOT NULL DEFAULT 0;
  -- Health stays up for a degraded monitor (it counts as up); this flag tells the two apart.
  ALTER TABLE monitors ADD COLUMN degraded INTEGER NOT NULL DEFAULT 0;
  -- Channels that also hear degraded transitions.
  ALTER TABLE channels ADD COLUMN notify_degraded INTEGER NOT NULL DEFAULT 0;
  `,
  // Version 5: maintenance windows carry a client's mark too.
  `
  ALTER TABLE maintenance_windows ADD COLUMN external_id TEXT;
  CREATE UNIQUE INDEX maintenance_windows_by_external_id ON maintenance_windows (account_id, external_id) WHERE external_id IS NOT NULL;
  `,
  // Version 6: the events each channel hears, and the alert outbox (every notification to a
  // vendor, reminders and escalations included), so a restart neither loses nor repeats one.
  `
  -- JSON array of CHANNEL_EVENTS; null: down and recovered, and degraded with notify_degraded.
  ALTER TABLE channels ADD COLUMN events TEXT;
  CREATE TABLE alert_outbox (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    monitor_id TEXT NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
    channel_id TEXT NOT NULL REFERENCES channels(id) ON DELETE CASCADE,
    -- What makes a notification one: <incident or heartbeat>/<channel>/<kind>/<n>. A second insert
    -- of the same notification (a reminder computed again after a restart) is ignored.
    dedup TEXT NOT NULL UNIQUE,
    incident_id TEXT,
    kind TEXT NOT NULL CHECK (kind IN ('trigger', 'reminder', 'escalation', 'resolve', 'notice')),
    -- The event body, without channel secrets (the channel's config is read at delivery).
    body TEXT NOT NULL,
    status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed', 'cancelled')),
    attempts INTEGER NOT NULL DEFAULT 0,
    due_at INTEGER NOT NULL,
    reason TEXT,
    status_code INTEGER,
    created_at INTEGER NOT NULL,
    updated_at INTEGER NOT NULL
  );
  CREATE INDEX alert_outbox_due ON alert_outbox (status, due_at);
  CREATE INDEX alert_outbox_by_incident ON alert_outbox (incident_id);
  CREATE INDEX alert_outbox_by_channel ON alert_outbox (channel_id, created_at);
  `,
  // Version 7: checker locations. Agent keys (scope `agent`, bound to a location), each agent's
  // last contact, heartbeats by location (an agent's check recorded once), health per location.
  `
  ALTER TABLE api_keys ADD COLUMN scope TEXT NOT NULL DEFAULT 'manage';
  ALTER TABLE api_keys ADD COLUMN location TEXT;
  CREATE TABLE agents (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
    key_id TEXT NOT NULL REFERENCES api_keys(id) ON DELETE CASCADE,
    location TEXT NOT NULL,
    first_seen_at INTEGER NOT NULL,
    last_seen_at INTEGER NOT NULL
  );
  CREATE INDEX agents_by_location ON agents (account_id, location, last_seen_at);
  -- Null for checks recorded before locations.
  ALTER TABLE heartbeats ADD COLUMN location TEXT;
  -- An agent's check: <monitor>/<location>/<due time>. A second post of it is not recorded again.
  ALTER TABLE heartbeats ADD COLUMN check_key TEXT;
  CREATE UNIQUE INDEX heartbeats_by_check_key ON heartbeats (check_key) WHERE check_key IS NOT NULL;
  CREATE TABLE location_days (
    monitor_id TEXT NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
    location TEXT NOT NULL,
    day INTEGER NOT NULL,
    checks INTEGER NOT NULL,
    up_checks INTEGER NOT NULL,
    maintenance_checks INTEGER NOT NULL,
    timed INTEGER NOT NULL,
    sum_ms INTEGER NOT NULL,
    PRIMARY KEY (monitor_id, location, day)
  ) WITHOUT ROWID;
  -- Confirmations count per location: each location's streaks and the health they lead to.
  CREATE TABLE location_health (
    monitor_id TEXT NOT NULL REFERENCES monitors(id) ON DELETE CASCADE,
    location TEXT NOT NULL,
    health TEXT NOT NULL CHECK (health IN ('pending', 'up', 'down')),
    failures INTEGER NOT NULL,
    successes INTEGER NOT NULL,
    last_checked_at INTEGER NOT NULL,
    PRIMARY KEY (monitor_id, location)
  ) WITHOUT ROWID;
  -- JSON array: the locations down when the incident opened.
  ALTER TABLE incidents ADD COLUMN locations TEXT;
  `,
  // Version 8: each agent's outbound policy, as it reports it with its lease requests (null: not
  // reported yet), so that a monitor's target is judged by the places that will probe it.
  `
  ALTER TABLE agents ADD COLUMN allow_private_targets INTEGER;
  `,
  // Version 9: several replicas on one database. Each check is leased to the replica that runs
  // it (another takes it over when the lease runs out unfinished); each notification attempt is
  // claimed by the replica that sends it.
  `
  CREATE TABLE check_leases (
    monitor_id TEXT PRIMARY KEY REFERENCES monitors(id) ON DELETE CASCADE,
    holder TEXT NOT NULL,
    claimed_at INTEGER NOT NULL,
    expires_at INTEGER NOT NULL,
    done INTEGER NOT NULL
  );
  ALTER TABLE alert_outbox ADD COLUMN claimed_by TEXT;
  ALTER TABLE alert_outbox ADD COLUMN claimed_until INTEGER;
  `,
  // Version 10: browser monitors' screenshots, one per failed run, beside its heartbeat (and gone
  // with it); and whether an agent's machine can run browser checks (null: not reported yet).
  `
  CREATE TABLE heartbeat_screenshots (
    heartbeat_id TEXT PRIMARY KEY REFERENCES heartbeats(id) ON DELETE CASCADE,
    monitor_id TEXT NOT NULL,
    png BLOB NOT NULL
  ) WITHOUT ROWID;
  ALTER TABLE agents ADD COLUMN browser INTEGER;
  `,
  // Version 11: request and failed-authentication counts per key or address and window, shared
  // by the replicas on one PostgreSQL database (one process on SQLite counts in memory).
  `
  CREATE TABLE rate_counters (
    key TEXT PRIMARY KEY,
    window_start INTEGER NOT NULL,
    count INTEGER NOT NULL
  );
  `,
  // Version 12: who holds an Idempotency-Key's reservation: the request (`holder`, a token of its
  // own) and the process that runs it (`process_token`, see Executor.processToken), so that a
  // retry on another replica takes over at once when that process is gone, and the request
  // that lost its reservation can no longer commit.
  `
  ALTER TABLE idempotency_keys ADD COLUMN holder TEXT;
  ALTER TABLE idempotency_keys ADD COLUMN process_token INTEGER;
  `,
  // Version 13: status pages as structure (sections of components, incident rules, domain,
  // access, locale, theme) and their operational records: manual components' states, incidents
  // people write (and rules open) with their updates, subscribers and what each was sent.
  `
  -- JSON: { sections, incident_rules, allowed_cidrs, locale, logo_url, brand_color } as stored.
  ALTER TABLE status_pages ADD COLUMN structure TEXT;
  ALTER TABLE status_pages ADD COLUMN custom_domain TEXT;
  -- scrypt: <salt hex>:<hash hex>; the password itself is never stored.
  ALTER TABLE status_pages ADD COLUMN password_hash TEXT;
  CREATE UNIQUE INDEX status_pages_by_domain ON status_pages (custom_domain) WHERE custom_domain IS NOT NULL;
  CREATE TABLE status_component_states (
    status_page_id TEXT NOT NULL REFERENCES status_pages(id) ON DELETE CASCADE,
    component_key TEXT NOT NULL,
    state TEXT NOT NULL,
    set_at TEXT NOT NULL,
    PRIMARY KEY (status_page_id, component_key)
  );
  CREATE TABLE status_incidents (
    id TEXT PRIMARY KEY,
    status_page_id TEXT NOT NULL REFERENCES status_pages(id) ON DELETE CASCADE,
    title TEXT NOT NULL,
    state TEXT NOT NULL,
    -- JSON: component key -> impact, the latest update's.
    components TEXT NOT NULL,
    postmortem TEXT,
    -- The index of the rule that opened it (null: a person did); one open incident per rule.
    rule INTEGER,
    open_rule TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    resolved_at TEXT
  );
  CREATE INDEX status_incidents_by_page ON status_incidents (status_page_id, created_at, id);
  CREATE UNIQUE INDEX status_incidents_open_rule ON status_incidents (open_rule) WHERE open_rule IS NOT NULL;
  CREATE TABLE status_incident_updates (
    id TEXT PRIMARY KEY,
    incident_id TEXT NOT NULL REFERENCES status_incidents(id) ON DELETE CASCADE,
    state TEXT NOT NULL,
    message TEXT NOT NULL,
    components TEXT NOT NULL,
    created_at TEXT NOT NULL
  );
  CREATE INDEX status_incident_updates_by_incident ON status_incident_updates (incident_id, created_at, id);
  CREATE TABLE status_subscribers (
    id TEXT PRIMARY KEY,
    status_page_id TEXT NOT NULL REFERENCES status_pages(id) ON DELETE CASCADE,
    kind TEXT NOT NULL CHECK (kind IN ('email', 'webhook')),
    address TEXT NOT NULL,
    -- JSON array of component keys; null: the whole page.
    components TEXT,
    token TEXT NOT NULL UNIQUE,
    -- A webhook's signing secret, sealed with the server's key.
    secret TEXT,
    confirmed_at TEXT,
    unsubscribed_at TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (status_page_id, kind, address)
  );
  -- Each notice once per subscriber and event: <subscriber>/<incident or window>/<update or start>.
  CREATE TABLE status_notices (
    dedup TEXT PRIMARY KEY,
    subscriber_id TEXT NOT NULL REFERENCES status_subscribers(id) ON DELETE CASCADE,
    created_at TEXT NOT NULL
  );
  `,
];
