"""A channel and a monitor through the native uptime plugin (same program as native-yaml)."""
import pulumi
import pulumi_uptime as uptime

config = pulumi.Config()

hooks = uptime.Channel("hooks", type="webhook", config={"url": config.require_secret("hookUrl")})

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

pulumi.export("channelId", hooks.id)
pulumi.export("monitorId", api.id)
pulumi.export("health", api.health)
