"""Every resource and function of the native uptime plugin (same program as native-yaml)."""
import pulumi
import pulumi_uptime as uptime

config = pulumi.Config()

# Each channel type's config is a class of its own: its keys typed and documented.
hooks = uptime.Channel(
    "hooks",
    type=uptime.ChannelType.WEBHOOK,
    config=uptime.ChannelConfigArgs(webhook=uptime.WebhookConfigArgs(url=config.require_secret("hookUrl"))),
)

api = uptime.Monitor(
    "api",
    type=uptime.MonitorType.HTTP,
    url="https://example.com/health",
    interval_sec=config.get_int("interval") or 60,
    headers={"x-token": config.require_secret("headerToken")},
    expected_status_codes=[200, "3xx"],
    # Typed classes from the schema's object types and enums: the program type-checks (mypy).
    assertions=[
        uptime.AssertionArgs(source=uptime.AssertionSource.JSON_BODY, property="$.status", comparison=uptime.AssertionComparison.EQUALS, target="ok"),
        uptime.AssertionArgs(source=uptime.AssertionSource.RESPONSE_TIME, comparison=uptime.AssertionComparison.LESS_THAN, target="2000"),
    ],
    degraded_response_ms=1000,
    channel_ids=[hooks.id],
    tags=["api", "prod"],
)

status = uptime.StatusPage("status", slug="api-status", title="API status", monitor_ids=[api.id])

sundays = uptime.MaintenanceWindow(
    "sundays",
    monitor_ids=[api.id],
    starts_at="2030-01-06T01:00:00Z",
    ends_at="2030-01-06T02:00:00Z",
    rrule="FREQ=WEEKLY;BYDAY=SU",
    time_zone="Europe/Berlin",
)

# The plugin's functions: each object as the service holds it (secrets left out), and the reads.
found_monitor = uptime.get_monitor_output(id=api.id)
found_channel = uptime.get_channel_output(id=hooks.id)
found_page = uptime.get_status_page_output(id=status.id)
found_window = uptime.get_maintenance_window_output(id=sundays.id)
stats = uptime.get_monitor_stats_output(monitor_id=api.id, days=1)
checks = uptime.get_monitor_heartbeats_output(monitor_id=api.id, hours=1)
# The page's own service (and known only once the page exists).
document = uptime.get_status_document_output(slug=status.slug, base_url=status.endpoint)

pulumi.export("channelId", hooks.id)
pulumi.export("monitorId", api.id)
pulumi.export("health", api.health)
pulumi.export(
    "lookups",
    {
        "monitorUrl": found_monitor.url,
        "channelType": found_channel.type,
        "pageTitle": found_page.title,
        "windowTimeZone": found_window.time_zone,
        "statsMonitorId": stats.monitor_id,
        "heartbeats": checks.heartbeats,
        "documentTitle": document.title,
    },
)
