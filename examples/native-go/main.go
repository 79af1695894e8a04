// Every resource and function of the native uptime plugin through its Go SDK: the same program as
// test/engine/programs/native-yaml and native-python.
package main

import (
	"github.com/pulumi-uptime/pulumi-uptime/sdk/go/uptime"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		hooks, err := uptime.NewChannel(ctx, "hooks", &uptime.ChannelArgs{
			Type:   uptime.ChannelTypeWebhook,
			Config: uptime.ChannelConfigArgs{Webhook: uptime.WebhookConfigArgs{Url: cfg.RequireSecret("hookUrl")}},
		})
		if err != nil {
			return err
		}
		api, err := uptime.NewMonitor(ctx, "api", monitorArgs(cfg, hooks))
		if err != nil {
			return err
		}
		status, err := uptime.NewStatusPage(ctx, "status", &uptime.StatusPageArgs{
			Slug:       pulumi.String("api-status"),
			Title:      pulumi.String("API status"),
			MonitorIds: pulumi.StringArray{api.ID().ToStringOutput()},
		})
		if err != nil {
			return err
		}
		sundays, err := uptime.NewMaintenanceWindow(ctx, "sundays", &uptime.MaintenanceWindowArgs{
			MonitorIds: pulumi.StringArray{api.ID().ToStringOutput()},
			StartsAt:   pulumi.String("2030-01-06T01:00:00Z"),
			EndsAt:     pulumi.String("2030-01-06T02:00:00Z"),
			Rrule:      pulumi.String("FREQ=WEEKLY;BYDAY=SU"),
			TimeZone:   pulumi.String("Europe/Berlin"),
		})
		if err != nil {
			return err
		}
		ctx.Export("channelId", hooks.ID())
		ctx.Export("monitorId", api.ID())
		ctx.Export("health", api.Health)
		ctx.Export("lookups", lookups(ctx, hooks, api, status, sundays))
		return nil
	})
}

// lookups calls the plugin's functions: each object as the service holds it (secrets left out),
// and the reads.
func lookups(ctx *pulumi.Context, hooks *uptime.Channel, api *uptime.Monitor, status *uptime.StatusPage, sundays *uptime.MaintenanceWindow) pulumi.Map {
	monitorId := api.ID().ToStringOutput()
	return pulumi.Map{
		"monitorUrl":     uptime.LookupMonitorOutput(ctx, uptime.LookupMonitorOutputArgs{Id: monitorId}).Url(),
		"channelType":    uptime.LookupChannelOutput(ctx, uptime.LookupChannelOutputArgs{Id: hooks.ID().ToStringOutput()}).Type(),
		"pageTitle":      uptime.LookupStatusPageOutput(ctx, uptime.LookupStatusPageOutputArgs{Id: status.ID().ToStringOutput()}).Title(),
		"windowTimeZone": uptime.LookupMaintenanceWindowOutput(ctx, uptime.LookupMaintenanceWindowOutputArgs{Id: sundays.ID().ToStringOutput()}).TimeZone(),
		"statsMonitorId": uptime.GetMonitorStatsOutput(ctx, uptime.GetMonitorStatsOutputArgs{MonitorId: monitorId, Days: pulumi.Int(1)}).MonitorId(),
		"heartbeats":     uptime.GetMonitorHeartbeatsOutput(ctx, uptime.GetMonitorHeartbeatsOutputArgs{MonitorId: monitorId, Hours: pulumi.Int(1)}).Heartbeats(),
		// The page's own service (and known only once the page exists).
		"documentTitle": uptime.GetStatusDocumentOutput(ctx, uptime.GetStatusDocumentOutputArgs{Slug: status.Slug, BaseUrl: status.Endpoint}).Title(),
	}
}

// monitorArgs checks https://example.com/health every minute (or `interval` seconds) and tells
// the channel when it fails.
func monitorArgs(cfg *config.Config, hooks *uptime.Channel) *uptime.MonitorArgs {
	interval := cfg.GetInt("interval")
	if interval == 0 {
		interval = 60
	}
	return &uptime.MonitorArgs{
		Type:                uptime.MonitorTypeHttp,
		Url:                 pulumi.String("https://example.com/health"),
		IntervalSec:         pulumi.Int(interval),
		Headers:             pulumi.StringMap{"x-token": cfg.RequireSecret("headerToken")},
		ExpectedStatusCodes: pulumi.Array{pulumi.Int(200), pulumi.String("3xx")},
		// Typed structs and enums from the schema's types: a misspelt field or value does not compile.
		Assertions: uptime.AssertionArray{
			uptime.AssertionArgs{Source: uptime.AssertionSourceJsonBody, Property: pulumi.String("$.status"), Comparison: uptime.AssertionComparisonEquals, Target: pulumi.String("ok")},
			uptime.AssertionArgs{Source: uptime.AssertionSourceResponseTime, Comparison: uptime.AssertionComparisonLessThan, Target: pulumi.String("2000")},
		},
		DegradedResponseMs: pulumi.Int(1000),
		ChannelIds:         pulumi.StringArray{hooks.ID().ToStringOutput()},
		Tags:               pulumi.ToStringArray([]string{"api", "prod"}),
	}
}
