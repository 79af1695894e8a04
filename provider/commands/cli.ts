#!/usr/bin/env node
import "../node-version";
import { parseArgs } from "node:util";
import { resolveConnection } from "../client/connection";
import { detectDrift, formatDrift } from "./drift";
import { importAccount } from "../import";
import { findOrphans, formatOrphans } from "./orphans";
import { exitCodeOf, formatTest, testMonitors } from "./test";
import { triggerMonitors } from "./trigger";
import { formatIncidents, incidentCommand, type IncidentOptions } from "./incident";
import { INCIDENT_IMPACTS, INCIDENT_STATES } from "../../api";

const USAGE = `pulumi-uptime: tools for Pulumi stacks that use pulumi-uptime

  pulumi-uptime drift --stack NAME [--cwd DIR] [--json]
      Refresh-previews the stack (writes nothing) and lists, per resource, the fields where the
      live service differs from the program. Exit code: 0 in sync, 2 drift, 1 error.

  pulumi-uptime orphans --stack NAME [--cwd DIR] [--json]
      Lists live monitors, channels and status pages that carry this stack's mark (external_id)
      but are not in its state (writes nothing). Exit code: 0 none, 2 orphans found, 1 error.

  pulumi-uptime test --stack NAME [--cwd DIR] [--json] [--filter tag:NAME] [--location NAME]
      Previews the stack (writes nothing) and runs each monitor's check once, as the program
      resolves it for the stack, without storing it; prints a row per monitor (secrets never).
      --location runs the checks at that checker location (a live agent of it runs them).
      Exit code: 0 all pass, 2 a monitor fails, 1 error.

  pulumi-uptime trigger [--stack NAME [--cwd DIR]] [--tag NAME] [--id MONITOR_ID]... [--location NAME] [--record] [--allow-empty] [--json]
      Runs deployed monitors now and waits for the results: the stack's (its state names them),
      those carrying the tag, or those ids (together: the ones all of them select). Each runs at
      its own locations, or at --location. Prints the same table as test. Nothing is stored unless
      --record: then each result is a heartbeat that moves health and may alert. Connection:
      UPTIME_API_URL and UPTIME_API_KEY, else the stack's uptime:baseUrl and uptime:apiKey.
      A selection of no monitors is an error unless --allow-empty.
      Exit code: 0 all pass, 2 a monitor fails, 1 error (an empty selection included).

  pulumi-uptime incident list|open|update|resolve --page ID_OR_SLUG [--stack NAME [--cwd DIR]] [--json]
        [--id INCIDENT_ID] [--title TEXT] [--message TEXT] [--state STATE] [--component KEY=IMPACT]... [--which open|resolved|all]
      Lists, opens, updates or resolves an incident of a status page.
      STATE: ${INCIDENT_STATES.join(", ")}; IMPACT: ${INCIDENT_IMPACTS.join(", ")}.
      Connection as for trigger. Prints the incident(s); exit code 0, or 1 on an error.

  pulumi-uptime import [--out DIR] [--filter tag:NAME]
      Writes a Pulumi TypeScript project (default ./uptime-imported) declaring every monitor,
      channel and status page of the account (UPTIME_API_URL, UPTIME_API_KEY), each adopting
      the live object. Secrets the API masks become secret config keys, listed in its README.
`;

const COMMANDS = ["drift", "orphans", "test", "trigger", "incident"];

export async function main(argv = process.argv.slice(2)): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      stack: { type: "string", short: "s" },
      cwd: { type: "string", short: "C" },
      json: { type: "boolean" },
      help: { type: "boolean", short: "h" },
      out: { type: "string", short: "o" },
      filter: { type: "string" },
      location: { type: "string" },
      tag: { type: "string" },
      id: { type: "string", multiple: true },
      record: { type: "boolean" },
      "allow-empty": { type: "boolean" },
      page: { type: "string" },
      title: { type: "string" },
      message: { type: "string" },
      state: { type: "string" },
      component: { type: "string", multiple: true },
      which: { type: "string" },
    },
  });
  const command = positionals[0] ?? "";
  if (!values.help && positionals[0] === "import") {
    const outDir = values.out ?? "uptime-imported";
    const program = await importAccount({ connection: resolveConnection(undefined), outDir, filter: values.filter });
    process.stdout.write(
      `Wrote ${program.declarations.length} resources to ${outDir}; secret config keys: ${program.secrets.length} (see its README.md)\n`,
    );
    return 0;
  }
  if (values.help || !COMMANDS.includes(command)) {
    process.stdout.write(USAGE);
    return values.help ? 0 : 1;
  }
  const print = (report: unknown, text: string) =>
    process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : text);
  if (command === "incident") {
    const action = positionals[1] as IncidentOptions["action"];
    if (!["list", "open", "update", "resolve"].includes(action))
      throw new Error("incident: give list, open, update or resolve");
    if (!values.page) throw new Error("--page is required (the status page's id or slug)");
    const incidents = await incidentCommand({
      action,
      page: values.page,
      id: values.id?.[0],
      title: values.title,
      message: values.message,
      state: values.state as IncidentOptions["state"],
      components: values.component,
      which: values.which as IncidentOptions["which"],
      stackName: values.stack,
      workDir: values.cwd,
    });
    print(action === "list" ? incidents : incidents[0], formatIncidents(incidents));
    return 0;
  }
  if (command === "trigger") {
    const { tag, id: ids, location, record, stack: stackName, cwd: workDir } = values;
    const report = await triggerMonitors({
      stackName,
      workDir,
      tag,
      ids,
      location,
      record,
      allowEmpty: values["allow-empty"],
    });
    print(report, formatTest(report));
    return exitCodeOf(report);
  }
  const stackName = values.stack ?? process.env.PULUMI_STACK;
  if (!stackName) throw new Error("--stack is required (or set PULUMI_STACK)");
  const workDir = values.cwd ?? process.cwd();
  if (command === "test") {
    const report = await testMonitors({ stackName, workDir, filter: values.filter, location: values.location });
    print(report, formatTest(report));
    return exitCodeOf(report);
  }
  if (command === "orphans") {
    const report = await findOrphans({ stackName, workDir });
    print(report, formatOrphans(report));
    return report.orphans.length ? 2 : 0;
  }
  const report = await detectDrift({ stackName, workDir });
  print(report, formatDrift(report));
  return report.inSync ? 0 : 2;
}

if (require.main === module) {
  main().then(
    (code) => process.exit(code),
    (err: Error) => {
      process.stderr.write(`pulumi-uptime: ${err.message}\n`);
      process.exit(1);
    },
  );
}
