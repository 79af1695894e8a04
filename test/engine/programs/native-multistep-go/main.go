// A multi-step journey with a retry strategy through the plugin's Go SDK: the same program as
// test/engine/programs/native-multistep and native-multistep-python.
package main

import (
	"github.com/pulumi-uptime/pulumi-uptime/sdk/go/uptime"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi"
	"github.com/pulumi/pulumi/sdk/v3/go/pulumi/config"
)

func main() {
	pulumi.Run(func(ctx *pulumi.Context) error {
		cfg := config.New(ctx, "")
		base := cfg.Require("serviceUrl")
		// `{{id}}`; a test sets a name no step extracts, which fails the preview.
		idVariable := cfg.Get("idVariable")
		if idVariable == "" {
			idVariable = "{{id}}"
		}
		auth := pulumi.StringMap{"Authorization": pulumi.String("Bearer {{token}}")}
		journey, err := uptime.NewMonitor(ctx, "journey", &uptime.MonitorArgs{
			Type:        uptime.MonitorTypeMultistep,
			IntervalSec: pulumi.Int(60),
			TimeoutSec:  pulumi.Int(5),
			Variables:   pulumi.StringMap{"password": cfg.RequireSecret("password")},
			Retry: uptime.RetryStrategyArgs{
				Strategy: uptime.RetryStrategyStrategyExponential,
				Delay:    pulumi.Int(200),
				Retries:  pulumi.Int(3),
			},
			Steps: uptime.MonitorStepArray{
				uptime.MonitorStepArgs{
					Name:    pulumi.String("log in"),
					Method:  uptime.MonitorStepMethodPOST,
					Url:     pulumi.String(base + "/login"),
					Headers: pulumi.StringMap{"Content-Type": pulumi.String("application/json")},
					Body:    pulumi.String(`{"user":"probe","password":"{{password}}"}`),
					Extract: uptime.StepExtractionArray{
						uptime.StepExtractionArgs{Name: pulumi.String("token"), Source: uptime.StepExtractionSourceJsonBody, Property: pulumi.String("$.token"), Secret: pulumi.Bool(true)},
					},
				},
				uptime.MonitorStepArgs{
					Name:     pulumi.String("create"),
					Method:   uptime.MonitorStepMethodPOST,
					Url:      pulumi.String(base + "/items"),
					Headers:  auth,
					Body:     pulumi.String(`{"name":"probe item"}`),
					Statuses: pulumi.Array{pulumi.Int(201)},
					Extract: uptime.StepExtractionArray{
						uptime.StepExtractionArgs{Name: pulumi.String("id"), Source: uptime.StepExtractionSourceJsonBody, Property: pulumi.String("$.id")},
					},
				},
				uptime.MonitorStepArgs{
					Name:    pulumi.String("read"),
					Url:     pulumi.String(base + "/items/" + idVariable),
					Headers: auth,
					Assertions: uptime.AssertionArray{
						uptime.AssertionArgs{Source: uptime.AssertionSourceJsonBody, Property: pulumi.String("$.name"), Comparison: uptime.AssertionComparisonEquals, Target: pulumi.String("probe item")},
					},
				},
				uptime.MonitorStepArgs{
					Name:     pulumi.String("delete"),
					Method:   uptime.MonitorStepMethodDELETE,
					Url:      pulumi.String(base + "/items/{{id}}"),
					Headers:  auth,
					Statuses: pulumi.Array{pulumi.Int(204)},
					Cleanup:  pulumi.Bool(true),
				},
			},
		})
		if err != nil {
			return err
		}
		ctx.Export("id", journey.ID())
		return nil
	})
}
