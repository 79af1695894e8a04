"""A channel and a monitor through the native uptime plugin (same program as native-yaml)."""
import pulumi
import pulumi_uptime as uptime

config = pulumi.Config()

# Each channel type's config is a class of its own: its keys typed and documented.
hooks = uptime.Channel(
    "hooks",
    type="webhook",
    config=uptime.ChannelConfigArgs(webhook=uptime.WebhookConfigArgs(url=config.require_secret("hookUrl"))),
)

api = uptime.Monitor(
    "api",
    type="http",
    url="https://example.com/health",
    interval_sec=config.get_int("interval") or 60,
    headers={"x-token": config.require_secret("headerToken")},
    expected_status_codes=[200, "3xx"],
    # Typed classes from the schema's object types, not dicts of strings.
    assertions=[
        uptime.AssertionArgs(source="json_body", property="$.status", comparison="equals", target="ok"),
        uptime.AssertionArgs(source="response_time", comparison="less_than", target="2000"),
    ],
    degraded_response_ms=1000,
    channel_ids=[hooks.id],
    tags=["api", "prod"],
)

# A function of the plugin: the monitor as the service holds it.
found = uptime.get_monitor_output(id=api.id)

pulumi.export("lookedUpUrl", found.url)
pulumi.export("channelId", hooks.id)
pulumi.export("monitorId", api.id)
pulumi.export("health", api.health)
