"""A multi-step journey with a retry strategy through the plugin (same program as native-multistep)."""
import pulumi
import pulumi_uptime as uptime

config = pulumi.Config()
base = config.require("serviceUrl")
# `{{id}}`; a test sets a name no step extracts, which fails the preview.
id_variable = config.get("idVariable") or "{{id}}"
auth = {"Authorization": "Bearer {{token}}"}

journey = uptime.Monitor(
    "journey",
    type=uptime.MonitorType.MULTISTEP,
    interval_sec=60,
    timeout_sec=5,
    variables={"password": config.require_secret("password")},
    retry=uptime.RetryStrategyArgs(strategy=uptime.RetryStrategyStrategy.EXPONENTIAL, delay=200, retries=3),
    steps=[
        uptime.MonitorStepArgs(
            name="log in",
            method=uptime.MonitorStepMethod.POST,
            url=f"{base}/login",
            headers={"Content-Type": "application/json"},
            body='{"user":"probe","password":"{{password}}"}',
            extract=[uptime.StepExtractionArgs(name="token", source=uptime.StepExtractionSource.JSON_BODY, property="$.token", secret=True)],
        ),
        uptime.MonitorStepArgs(
            name="create",
            method=uptime.MonitorStepMethod.POST,
            url=f"{base}/items",
            headers=auth,
            body='{"name":"probe item"}',
            statuses=[201],
            extract=[uptime.StepExtractionArgs(name="id", source=uptime.StepExtractionSource.JSON_BODY, property="$.id")],
        ),
        uptime.MonitorStepArgs(
            name="read",
            url=f"{base}/items/{id_variable}",
            headers=auth,
            assertions=[uptime.AssertionArgs(source=uptime.AssertionSource.JSON_BODY, property="$.name", comparison=uptime.AssertionComparison.EQUALS, target="probe item")],
        ),
        uptime.MonitorStepArgs(
            name="delete",
            method=uptime.MonitorStepMethod.DELETE,
            url=f"{base}/items/{{{{id}}}}",
            headers=auth,
            statuses=[204],
            cleanup=True,
        ),
    ],
)

pulumi.export("id", journey.id)
