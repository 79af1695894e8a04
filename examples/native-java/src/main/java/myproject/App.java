package myproject;

import com.pulumi.Context;
import com.pulumi.Pulumi;
import com.pulumi.core.Either;
import com.pulumi.core.Output;
import com.pulumi.uptime.Channel;
import com.pulumi.uptime.ChannelArgs;
import com.pulumi.uptime.Monitor;
import com.pulumi.uptime.MonitorArgs;
import com.pulumi.uptime.StatusPage;
import com.pulumi.uptime.StatusPageArgs;
import com.pulumi.uptime.UptimeFunctions;
import com.pulumi.uptime.enums.AssertionComparison;
import com.pulumi.uptime.enums.AssertionSource;
import com.pulumi.uptime.enums.ChannelType;
import com.pulumi.uptime.enums.MonitorStepMethod;
import com.pulumi.uptime.enums.MonitorType;
import com.pulumi.uptime.enums.RetryStrategyStrategy;
import com.pulumi.uptime.enums.StepExtractionSource;
import com.pulumi.uptime.inputs.AssertionArgs;
import com.pulumi.uptime.inputs.ChannelConfigArgs;
import com.pulumi.uptime.inputs.GetMonitorArgs;
import com.pulumi.uptime.inputs.MonitorStepArgs;
import com.pulumi.uptime.inputs.RetryStrategyArgs;
import com.pulumi.uptime.inputs.StepExtractionArgs;
import com.pulumi.uptime.inputs.WebhookConfigArgs;
import java.util.List;
import java.util.Map;

/** A channel, a monitor with a secret header, a multi-step monitor and a status page. */
public class App {
    public static void main(String[] args) {
        Pulumi.run(App::stack);
    }

    static void stack(Context ctx) {
        var config = ctx.config();
        var hooks = new Channel("hooks", ChannelArgs.builder()
            .type(ChannelType.Webhook)
            .config(ChannelConfigArgs.builder()
                .webhook(WebhookConfigArgs.builder().url(config.requireSecret("hookUrl")).build())
                .build())
            .build());

        var api = new Monitor("api", MonitorArgs.builder()
            .type(MonitorType.Http)
            .url("https://example.com/health")
            .intervalSec(60)
            // A secret stays a secret: in the state, the plan and the provider's logs.
            .headers(config.requireSecret("headerToken").applyValue(token -> Map.of("x-token", token)))
            .expectedStatusCodes(Either.ofLeft(200), Either.ofRight("3xx"))
            .assertions(AssertionArgs.builder()
                .source(AssertionSource.JsonBody)
                .property("$.status")
                .comparison(AssertionComparison.Equals)
                .target("ok")
                .build())
            .channelIds(hooks.id().applyValue(List::of))
            .tags("api", "prod")
            .build());

        var journey = new Monitor("journey", MonitorArgs.builder()
            .type(MonitorType.Multistep)
            .intervalSec(300)
            .retry(RetryStrategyArgs.builder().strategy(RetryStrategyStrategy.Exponential).delay(200).retries(3).build())
            .steps(
                MonitorStepArgs.builder()
                    .name("log in")
                    .method(MonitorStepMethod.POST)
                    .url("https://example.com/login")
                    .headers(Map.of("content-type", "application/json"))
                    .body("{\"user\":\"probe\"}")
                    .extract(StepExtractionArgs.builder()
                        .name("token")
                        .source(StepExtractionSource.JsonBody)
                        .property("$.token")
                        .secret(true)
                        .build())
                    .build(),
                MonitorStepArgs.builder()
                    .name("profile")
                    .url("https://example.com/me")
                    .headers(Map.of("authorization", "Bearer {{token}}"))
                    .build())
            .build());

        var status = new StatusPage("status", StatusPageArgs.builder()
            .slug("api-status")
            .title("API status")
            .monitorIds(Output.all(api.id(), journey.id()))
            .build());

        // A function: the monitor as the service holds it.
        var found = UptimeFunctions.getMonitor(GetMonitorArgs.builder().id(api.id()).build());

        ctx.export("channelId", hooks.id());
        ctx.export("monitorId", api.id());
        ctx.export("journeyId", journey.id());
        ctx.export("statusPageId", status.id());
        ctx.export("monitorUrl", found.applyValue(m -> m.url().orElse("")));
    }
}
