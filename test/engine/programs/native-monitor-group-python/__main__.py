"""A MonitorGroup through the plugin (same program as native-monitor-group)."""
import pulumi
import pulumi_uptime as uptime

config = pulumi.Config()

# A channel made outside the program, found by its name.
ops = uptime.get_channel_output(name=config.require("channelName"))

shop = uptime.MonitorGroup(
    "shop",
    interval_sec=config.require_int("intervalSec"),
    confirmations=2,
    tags=["shop"],
    channel_ids=[ops.id],
    monitors={
        "web": uptime.GroupMonitorArgs(type=uptime.MonitorType.HTTP, url=config.require("webUrl")),
        "api": uptime.GroupMonitorArgs(type=uptime.MonitorType.HTTP, url=config.require("apiUrl")),
        # Its own interval wins over the group's; its tags add to the group's.
        "admin": uptime.GroupMonitorArgs(type=uptime.MonitorType.HTTP, url=config.require("adminUrl"), interval_sec=300, tags=["back-office"]),
    },
    maintenance_windows={
        "nightly": uptime.GroupMaintenanceWindowArgs(starts_at="2030-01-01T02:00:00Z", ends_at="2030-01-01T03:00:00Z", rrule="FREQ=DAILY"),
    },
)

pulumi.export("monitorIds", shop.monitor_ids)
pulumi.export("windowIds", shop.maintenance_window_ids)
