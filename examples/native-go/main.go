// A webhook channel and an HTTP monitor through the native uptime plugin and its Go SDK: the same
// program as test/engine/programs/native-yaml and native-python.
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
			Type:   pulumi.String("webhook"),
			Config: pulumi.StringMap{"url": cfg.RequireSecret("hookUrl")},
		})
		if err != nil {
			return err
		}
		api, err := uptime.NewMonitor(ctx, "api", monitorArgs(cfg, hooks))
		if err != nil {
			return err
		}
		ctx.Export("channelId", hooks.ID())
		ctx.Export("monitorId", api.ID())
		ctx.Export("health", api.Health)
		return nil
	})
}

// monitorArgs checks https://example.com/health every minute (or `interval` seconds) and tells
// the channel when it fails.
func monitorArgs(cfg *config.Config, hooks *uptime.Channel) *uptime.MonitorArgs {
	interval := cfg.GetInt("interval")
	if interval == 0 {
		interval = 60
	}
	return &uptime.MonitorArgs{
		Type:                pulumi.String("http"),
		Url:                 pulumi.String("https://example.com/health"),
		IntervalSec:         pulumi.Int(interval),
		Headers:             pulumi.StringMap{"x-token": cfg.RequireSecret("headerToken")},
		ExpectedStatusCodes: pulumi.Array{pulumi.Int(200), pulumi.String("3xx")},
		// Typed structs from the schema's object types: a misspelt field does not compile.
		Assertions: uptime.AssertionArray{
			uptime.AssertionArgs{Source: pulumi.String("json_body"), Property: pulumi.String("$.status"), Comparison: pulumi.String("equals"), Target: pulumi.String("ok")},
			uptime.AssertionArgs{Source: pulumi.String("response_time"), Comparison: pulumi.String("less_than"), Target: pulumi.String("2000")},
		},
		DegradedResponseMs: pulumi.Int(1000),
		ChannelIds:         pulumi.StringArray{hooks.ID().ToStringOutput()},
		Tags:               pulumi.ToStringArray([]string{"api", "prod"}),
	}
}
