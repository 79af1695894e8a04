// A MonitorGroup through the plugin's Go SDK: the same program as
// test/engine/programs/native-monitor-group and native-monitor-group-python.
package main

import (
	"github.com/pulumi-uptime/pulumi-uptime/sdk/go/uptime"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		// A channel made outside the program, found by its name.
		ops := uptime.LookupChannelOutput(ctx, uptime.LookupChannelOutputArgs{Name: pulumi.String(cfg.Require("channelName"))})
		shop, err := uptime.NewMonitorGroup(ctx, "shop", &uptime.MonitorGroupArgs{
			IntervalSec:   pulumi.Int(cfg.RequireInt("intervalSec")),
			Confirmations: pulumi.Int(2),
			Tags:          pulumi.ToStringArray([]string{"shop"}),
			ChannelIds:    pulumi.StringArray{ops.Id()},
			Monitors: uptime.GroupMonitorMap{
				"web": uptime.GroupMonitorArgs{Type: uptime.MonitorTypeHttp, Url: pulumi.String(cfg.Require("webUrl"))},
				"api": uptime.GroupMonitorArgs{Type: uptime.MonitorTypeHttp, Url: pulumi.String(cfg.Require("apiUrl"))},
				// Its own interval wins over the group's; its tags add to the group's.
				"admin": uptime.GroupMonitorArgs{
					Type:        uptime.MonitorTypeHttp,
					Url:         pulumi.String(cfg.Require("adminUrl")),
					IntervalSec: pulumi.Int(300),
					Tags:        pulumi.ToStringArray([]string{"back-office"}),
				},
			},
			MaintenanceWindows: uptime.GroupMaintenanceWindowMap{
				"nightly": uptime.GroupMaintenanceWindowArgs{
					StartsAt: pulumi.String("2030-01-01T02:00:00Z"),
					EndsAt:   pulumi.String("2030-01-01T03:00:00Z"),
					Rrule:    pulumi.String("FREQ=DAILY"),
				},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("monitorIds", shop.MonitorIds)
		ctx.Export("windowIds", shop.MaintenanceWindowIds)
		return nil
	})
}
