import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { agentCli, agentKeyFile, startAgentLocation } from "../../support/agent-location";
import { type RdapTarget, type SmtpTarget, startRdapServer, startSmtpServer } from "../../support/network-servers";
import type { TestServer } from "../../support/server";
import { eventually } from "../../support/target";
import { unixBridge } from "./bridge";

/**
 * The agent's network namespace (`unshare -rn`): loopback up, but only 127.0.0.1 is local;
 * 127.0.0.2 is routed out of lo and never answered, so echo requests to it are lost.
 */
const NAMESPACE = [
  "ip link set lo up",
  "ip route del local 127.0.0.0/8 dev lo table local",
  "ip route replace 127.0.0.2/32 dev lo",
].join(" && ");

describe("ping, smtp and domain monitors at agent locations", () => {
  let s: TestServer;
  let close: () => Promise<void>;
  let rdap: RdapTarget;
  let smtp: SmtpTarget;
  let dir: string;
  let bridge: Awaited<ReturnType<typeof unixBridge>>;
  let nsAgent: ChildProcess;
  let nsLog = "";

  beforeAll(async () => {
    [rdap, smtp] = await Promise.all([startRdapServer({ "shop.example": 200 }), startSmtpServer()]);
    ({ s, close } = await startAgentLocation({
      server: { agentLiveMs: 5_000 },
      agent: { rdapBootstrapUrl: rdap.bootstrapUrl },
    }));
    dir = mkdtempSync(join(tmpdir(), "uptime-ping-ns-"));
    bridge = await unixBridge(join(dir, "server.sock"), { port: Number(new URL(s.url).port) });
    const args = agentCli("http://uptime.internal", "ns", await agentKeyFile(s, dir, "ns"), [
      "--socket",
      join(dir, "server.sock"),
      "--allow-private-targets",
    ]);
    nsAgent = spawn(
      "unshare",
      ["-rn", "sh", "-c", `${NAMESPACE} && exec "${process.execPath}" ${args.map((a) => `"${a}"`).join(" ")}`],
      { stdio: ["ignore", "ignore", "pipe"] },
    );
    nsAgent.stderr?.on("data", (d) => (nsLog += d));
    await eventually(
      async () =>
        (await s.call("GET", "/api/v1/locations")).body.data.some(
          (l: { name: string; agents: unknown[] }) => l.name === "ns" && l.agents.length > 0,
        ),
      20_000,
    );
  });
  afterAll(async () => {
    nsAgent?.kill("SIGKILL");
    await bridge?.close();
    await close?.();
    await Promise.all([rdap?.close(), smtp?.close()]);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const heartbeat = async (id: string) =>
    eventually(
      async () =>
        ((await s.call("GET", `/api/v1/monitors/${id}/heartbeats?hours=1`)).body.data as Record<string, unknown>[])[0],
      20_000,
    );
  const create = async (body: Record<string, unknown>) => {
    const res = await s.call("POST", "/api/v1/monitors", {
      name: String(body.type),
      interval_sec: 2,
      timeout_sec: 1,
      ...body,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.data.id as string;
  };

  it("an agent checks each type and posts its heartbeats; a dry run at the location runs there", async () => {
    const bodies = [
      { type: "ping", url: "ping://127.0.0.1", ping_count: 2 },
      {
        type: "smtp",
        url: smtp.url,
        verify_tls: false,
        assertions: [{ source: "json_body", property: "$.starttls", comparison: "equals", target: "true" }],
      },
      { type: "domain", url: "domain://shop.example", domain_expiry_days: 30 },
    ];
    for (const body of bodies) {
      const id = await create({ ...body, locations: ["eu"] });
      expect(await heartbeat(id), body.type).toMatchObject({ location: "eu", status: "up" });
      const dry = await s.call("POST", `/api/v1/monitors/${id}/test?location=eu`);
      expect(dry.body.data, body.type).toMatchObject({ status: "up" });
    }
    expect(rdap.requests).toContain("/rdap/domain/shop.example");
  });

  it("in the agent's network namespace, 127.0.0.1 answers and a loopback address that is not local does not", async () => {
    const up = await create({ type: "ping", url: "ping://127.0.0.1", locations: ["ns"] });
    const silent = await create({ type: "ping", url: "ping://127.0.0.2", ping_count: 2, locations: ["ns"] });
    expect(await heartbeat(up), nsLog).toMatchObject({ location: "ns", status: "up" });
    expect(await heartbeat(silent), nsLog).toMatchObject({
      location: "ns",
      status: "down",
      error_class: "timeout",
      error: "no reply to 2 echo requests (100% packet loss)",
    });
  });
});
