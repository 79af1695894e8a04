/**
 * `npm run demo`: starts the reference server on its embedded store with a fresh key and a local
 * target site, deploys examples/full-stack with the real Pulumi engine, waits for real checks,
 * shows outputs, heartbeats, stats and the public status document, then changes a monitor behind
 * Pulumi's back and shows the drift caught. `--keep` leaves everything running.
 */
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { getMonitorHeartbeats, getMonitorStats, getStatusDocument } from "../provider/index";
import { detectDrift, formatDrift } from "../provider/commands/drift";
import { buildApp } from "../server/index";
import { installPackedPackage } from "./packed";
import { offlineEngine, prepareProgram, REPO_ROOT } from "./pulumi-engine";

const keep = process.argv.includes("--keep");
const started = Date.now();
const step = (text: string) =>
  console.log(`\n\x1b[1m▶ ${text}\x1b[0m  (${((Date.now() - started) / 1000).toFixed(0)} s)`);
const indent = (text: string) => text.replace(/^/gm, "    ");

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function waitFor<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "pulumi-uptime-demo-"));
  const cleanups: (() => Promise<unknown> | unknown)[] = [() => rmSync(dir, { recursive: true, force: true })];
  try {
    step("Starting a local target site and a notification receiver");
    const site = createServer((req, res) => {
      if (req.url === "/health")
        return res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
      res.writeHead(200, { "content-type": "text/html" }).end("<h1>Welcome to Acme</h1>");
    });
    const siteUrl = await listen(site);
    const events: string[] = [];
    const hooks = createServer((req, res) => {
      let body = "";
      req.on("data", (c) => {
        body += c;
      });
      req.on("end", () => {
        events.push(`${req.url?.startsWith("/slack") ? "slack" : "webhook"} ${body.slice(0, 120)}`);
        res.writeHead(200).end("ok");
      });
    });
    const hooksUrl = await listen(hooks);
    cleanups.push(
      () => site.close(),
      () => hooks.close(),
    );
    console.log(indent(`site ${siteUrl}, receiver ${hooksUrl}`));

    step("Starting the reference server (SQLite store) with a fresh API key");
    const app = await buildApp({ db: join(dir, "uptime.db"), allowPrivateTargets: true, logger: false });
    const { key } = await app.store.keys.create("demo", "demo key");
    const baseUrl = await app.listen({ port: Number(process.env.DEMO_PORT ?? 0), host: "127.0.0.1" });
    cleanups.push(() => app.close());
    console.log(indent(`server ${baseUrl}, key ${key.slice(0, 11)}… (shown in full only with --keep)`));

    step("Preparing the Pulumi engine and installing pulumi-uptime from its npm pack tarball");
    const engine = await offlineEngine({ stateDir: join(dir, "pulumi"), typeCheck: true });
    const workDir = prepareProgram(join(REPO_ROOT, "examples", "full-stack"), {});
    symlinkSync(await installPackedPackage(), join(workDir, "node_modules"), "dir");
    cleanups.push(() => rmSync(workDir, { recursive: true, force: true }));
    const stack = await engine.stack(workDir, "demo");
    await stack.setAllConfig({
      "uptime:baseUrl": { value: baseUrl },
      "uptime:apiKey": { value: key, secret: true },
      siteUrl: { value: siteUrl },
      webhookUrl: { value: `${hooksUrl}/webhook/token-123`, secret: true },
      webhookSecret: { value: "demo-signing-secret-0123", secret: true },
      slackWebhookUrl: { value: `${hooksUrl}/slack/T000/B000/secret`, secret: true },
      statusSlug: { value: "acme-demo" },
    });

    step("pulumi up (examples/full-stack)");
    const up = await stack.up({ onOutput: (line) => process.stdout.write(indent(line)) });
    const outputs = Object.fromEntries(Object.entries(up.outputs).map(([k, v]) => [k, v.value]));
    const monitorIds = outputs.monitorIds as Record<string, string>;

    step("Waiting for the server's first real checks");
    const connection = { baseUrl, apiKey: key };
    for (const [name, id] of Object.entries(monitorIds)) {
      const beats = await waitFor(`a check of ${name}`, async () => {
        const hb = await getMonitorHeartbeats({ monitorId: id, hours: 1 }, { connection });
        return hb.length ? hb : undefined;
      });
      console.log(indent(`${name.padEnd(10)} ${beats[0]?.status} in ${beats[0]?.response_time_ms} ms`));
    }

    step("Stack outputs");
    console.log(indent(JSON.stringify(outputs, null, 2)));
    step("Heartbeats and stats of the API monitor");
    const apiId = monitorIds.api as string;
    console.log(
      indent(JSON.stringify(await getMonitorHeartbeats({ monitorId: apiId, hours: 1 }, { connection }), null, 2)),
    );
    const stats = await getMonitorStats({ monitorId: apiId, days: 7 }, { connection });
    console.log(indent(JSON.stringify({ ...stats, daily: `${stats.daily.length} days` }, null, 2)));
    step("Public status document (no key needed)");
    console.log(indent(JSON.stringify(await getStatusDocument({ slug: "acme-demo", baseUrl }), null, 2)));
    console.log(indent(`status page for people: ${baseUrl}/status/acme-demo`));

    step("Changing the homepage monitor behind Pulumi's back (interval 900 s, paused)");
    const headers = { authorization: `Bearer ${key}`, "content-type": "application/json" };
    const homepage = monitorIds.homepage as string;
    await fetch(`${baseUrl}/api/v1/monitors/${homepage}`, { method: "PATCH", headers, body: '{"interval_sec":900}' });
    await fetch(`${baseUrl}/api/v1/monitors/${homepage}/pause`, {
      method: "POST",
      headers: { authorization: headers.authorization },
    });

    step("npx pulumi-uptime drift --stack demo  (a refresh preview: nothing is written)");
    const drift = async () => {
      const report = await detectDrift({
        stackName: "demo",
        workDir,
        pulumiCommand: engine.command,
        envVars: engine.envVars,
      });
      console.log(indent(formatDrift(report)));
      return report;
    };
    const report = await drift();
    if (report.inSync) throw new Error("the drift was not detected");

    step("pulumi refresh + pulumi up restore the declared state");
    await stack.refresh();
    const restored = await stack.up();
    console.log(indent(JSON.stringify(restored.summary.resourceChanges)));
    const after = await drift();
    if (!after.inSync) throw new Error("the stack is still drifted after refresh + up");
    if (events.length) console.log(indent(`notifications received so far: ${events.length}`));

    if (keep) {
      console.log(
        `\nLeft running: server ${baseUrl}  key ${key}\nstack folder ${workDir}  (PULUMI_HOME ${engine.envVars.PULUMI_HOME})\nPress Ctrl+C to stop.`,
      );
      await new Promise(() => undefined);
    }
    step("Cleaning up: pulumi destroy, stop the server");
    await stack.destroy();
    console.log("\nDemo finished.");
  } finally {
    if (!keep) for (const cleanup of cleanups.reverse()) await cleanup();
  }
}

main().catch((err: Error) => {
  console.error(`\ndemo failed: ${err.stack ?? err.message}`);
  process.exit(1);
});
