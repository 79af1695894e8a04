import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { type AgentOptions, CheckerAgent } from "../../server/agents/agent";
import type { ServerOptionsInput } from "../../server/index";
import { startServer, type TestServer } from "./server";
import { eventually } from "./target";

/** A server with its checker, and one started agent at a location of the dev account. */
export interface AgentLocation {
  s: TestServer;
  agent: CheckerAgent;
  /** Stops the agent (1 s to finish its checks), then the server. */
  close(): Promise<void>;
}

/**
 * Starts a server (checker on, 1 s minimum interval, 2 s leases, agents live for 3 s unless
 * `server` says otherwise), makes an agent key for `location` (default `eu`) in the dev account, and
 * starts an agent there that may reach private targets (4 checks at once unless `agent` says otherwise).
 */
export async function startAgentLocation(
  options: { location?: string; server?: ServerOptionsInput; agent?: Partial<AgentOptions> } = {},
): Promise<AgentLocation> {
  const location = options.location ?? "eu";
  const s = await startServer({
    checker: true,
    minIntervalSec: 1,
    leaseMs: 2_000,
    agentLiveMs: 3_000,
    ...options.server,
  });
  const key = (await s.app.store.keys.create("dev", `${location} agent`, undefined, location)).key;
  const agent = new CheckerAgent({
    server: s.url,
    key,
    location,
    allowPrivateTargets: true,
    concurrency: 4,
    maxBuffered: 100,
    waitMs: 500,
    ...options.agent,
  });
  agent.start();
  return {
    s,
    agent,
    close: async () => {
      await agent.stop(1_000);
      await s.close();
    },
  };
}

/** Waits until the server lists `location` as live: an agent there has asked for work. */
export async function locationLive(server: Pick<TestServer, "call">, location: string, timeoutMs?: number) {
  await eventually(
    async () =>
      ((await server.call("GET", "/api/v1/locations")).body.data as { name: string; live: boolean }[]).some(
        (l) => l.name === location && l.live,
      ),
    timeoutMs,
  );
}

/**
 * Makes an agent key for `location` in the dev account of `server` and writes it, readable by its
 * owner alone, to `<dir>/<location>.key`; answers that file's path.
 */
export async function agentKeyFile(server: Pick<TestServer, "app">, dir: string, location: string): Promise<string> {
  const file = join(dir, `${location}.key`);
  const { key } = await server.app.store.keys.create("dev", `${location} agent`, undefined, location);
  writeFileSync(file, key, { mode: 0o600 });
  return file;
}

/**
 * The arguments (after `node`) of `uptime-server agent` as users run it, the built CLI: an agent at
 * `location` that reports to `server` with the key in `keyFile`, then `extra` arguments.
 */
export function agentCli(server: string, location: string, keyFile: string, extra: string[] = []): string[] {
  const cli = join(REPO_ROOT, "dist/server/cli.js");
  return [cli, "agent", "--server", server, "--location", location, "--key-file", keyFile, ...extra];
}
