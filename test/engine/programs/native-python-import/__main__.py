"""The declaration written by hand for a monitor imported with `pulumi import --generate-code=false`."""
import pulumi
import pulumi_uptime as uptime

legacy = uptime.Monitor(
    "legacy",
    name="made by hand",
    type="keyword",
    url="https://example.com/",
    interval_sec=300,
    keyword="Example Domain",
    tags=["legacy"],
)

pulumi.export("monitorId", legacy.id)
