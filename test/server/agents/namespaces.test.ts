import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Receiver, startReceiver } from "../../support/receiver";
import { startServer, type TestServer, webhookChannel } from "../../support/server";
import { eventually } from "../../support/target";
import { unixBridge } from "./bridge";
import { agentCli, agentKeyFile } from "../../support/agent-location";

/** The target inside the `inside` namespace: port 8080 of that namespace's loopback; `/slow` answers after 1.5 s. */
const SLOW_MS = 1_500;
const TARGET = `require("http").createServer((q, r) => setTimeout(() => r.end("ok"), q.url === "/slow" ? ${SLOW_MS} : 0)).listen(8080, "127.0.0.1")`;
const LEASE_MS = 3_000;

const namespacesWork = spawnSync("unshare", ["-rn", "true"]).status === 0;

/**
 * The server in this process's network namespace; each agent location in a namespace of its own
 * (`unshare -rn`, loopback only), reaching the server through a unix socket bridged to its port.
 * The target listens in the `inside` namespace only: `outside` cannot reach it.
 */
describe.skipIf(!namespacesWork)("agents in separate network namespaces", () => {
  let s: TestServer;
  let receiver: Receiver;
  let dir: string;
  let bridge: Awaited<ReturnType<typeof unixBridge>>;
  let holder: ChildProcess;
  const agents = new Map<string, { child: ChildProcess; log: string }>();

  const agentArgs = (location: string, id: string) =>
    agentCli("http://uptime.internal", location, join(dir, `${location}.key`), [
      "--socket",
      join(dir, "server.sock"),
      "--allow-private-targets",
      "--agent-id",
      id,
    ]);
  const track = (id: string, child: ChildProcess) => {
    const entry = { child, log: "" };
    child.stderr?.on("data", (d) => (entry.log += d));
    agents.set(id, entry);
  };
  /** An agent joining the `inside` namespace (the target's). */
  const insideAgent = (id: string) =>
    track(
      id,
      spawn(
        "nsenter",
        ["-t", String(holder.pid), "-U", "-n", "--preserve-credentials", process.execPath, ...agentArgs("inside", id)],
        { stdio: ["ignore", "ignore", "pipe"] },
      ),
    );

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), "uptime-ns-"));
    s = await startServer({
      checker: true,
      minIntervalSec: 1,
      leaseMs: LEASE_MS,
      agentLiveMs: 10_000,
      notifyRetryDelaysMs: [100],
    });
    receiver = await startReceiver();
    bridge = await unixBridge(join(dir, "server.sock"), { port: Number(new URL(s.url).port) });
    for (const location of ["inside", "outside"]) await agentKeyFile(s, dir, location);
    holder = spawn("unshare", ["-rn", "sh", "-c", `ip link set lo up && exec "${process.execPath}" -e '${TARGET}'`], {
      stdio: "ignore",
    });
    await new Promise((r) => setTimeout(r, 500));
    insideAgent("inside-1");
    insideAgent("inside-2");
    track(
      "outside-1",
      spawn(
        "unshare",
        [
          "-rn",
          "sh",
          "-c",
          `ip link set lo up && exec "${process.execPath}" ${agentArgs("outside", "outside-1")
            .map((a) => `"${a}"`)
            .join(" ")}`,
        ],
        { stdio: ["ignore", "ignore", "pipe"] },
      ),
    );
    await eventually(
      async () =>
        (await s.call("GET", "/api/v1/locations")).body.data.filter((l: { agents: unknown[] }) => l.agents.length > 0)
          .length === 2,
      20_000,
    );
  });
  afterAll(async () => {
    for (const { child } of agents.values()) child.kill("SIGKILL");
    holder?.kill("SIGKILL");
    await bridge?.close();
    await s?.close();
    await receiver?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("the location that cannot reach the target is down, the other up; failure_threshold 2 keeps the monitor up, 1 makes it down and notifies naming the location", async () => {
    const channel = await webhookChannel(s, "hook", { url: `${receiver.url}/hook` });
    const both = {
      type: "http",
      url: "http://127.0.0.1:8080/",
      interval_sec: 2,
      timeout_sec: 1,
      locations: ["outside", "inside"],
      channel_ids: [channel.id],
    };
    const two = (await s.call("POST", "/api/v1/monitors", { ...both, name: "two of two", failure_threshold: 2 })).body
      .data;
    const one = (await s.call("POST", "/api/v1/monitors", { ...both, name: "one of two", failure_threshold: 1 })).body
      .data;
    expect(two.locations).toEqual(["inside", "outside"]);
    const byLocation = await eventually(async () => {
      const st = (await s.call("GET", `/api/v1/monitors/${two.id}/stats?days=1`)).body.data;
      const by = Object.fromEntries(st.locations.map((l: { location: string }) => [l.location, l]));
      return by.inside?.checks >= 2 && by.outside?.checks >= 2 ? by : undefined;
    }, 20_000);
    expect(byLocation.inside).toMatchObject({ health: "up", down_checks: 0, live: true });
    expect(byLocation.outside).toMatchObject({ health: "down", up_checks: 0, live: true });
    const beats = (await s.call("GET", `/api/v1/monitors/${two.id}/heartbeats`)).body.data as {
      location: string;
      status: string;
      error: string | null;
    }[];
    expect(
      beats
        .filter((b) => b.location === "outside")
        .every((b) => b.status === "down" && /connect|refused/i.test(b.error ?? "")),
    ).toBe(true);
    expect((await s.call("GET", `/api/v1/monitors/${two.id}`)).body.data).toMatchObject({
      health: "up",
      unchecked_locations: [],
    });
    // "one of two" was created after "two of two": its first check from outside may still be on its way.
    const oneHealth = async () => (await s.call("GET", `/api/v1/monitors/${one.id}`)).body.data.health as string;
    await eventually(async () => ((await oneHealth()) === "down" ? true : undefined), 10_000);
    const [hook] = await receiver.waitFor(1);
    expect(JSON.parse(hook?.body ?? "{}")).toMatchObject({
      event: "monitor.down",
      monitor: { id: one.id },
      failed_locations: ["outside"],
    });
    // Only the one monitor went down: the other never notified.
    expect(receiver.received.map((r) => JSON.parse(r.body).monitor.id)).not.toContain(two.id);
    await s.call("DELETE", `/api/v1/monitors/${one.id}`);
    await s.call("DELETE", `/api/v1/monitors/${two.id}`);
  });

  it("kill -9 of an agent mid-lease: its checks are taken over within one lease period, none lost, none recorded twice", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 10; i++) {
      const m = await s.call("POST", "/api/v1/monitors", {
        name: `slow ${i}`,
        type: "http",
        url: "http://127.0.0.1:8080/slow",
        interval_sec: 4,
        timeout_sec: 3,
        locations: ["inside"],
      });
      ids.push(m.body.data.id);
    }
    const held = await eventually(async () => {
      const keys = s.app.leases.held("inside-1").filter((k) => ids.some((id) => k.startsWith(`${id}/`)));
      return keys.length > 0 ? keys : undefined;
    }, 20_000);
    const killedAt = Date.now();
    agents.get("inside-1")?.child.kill("SIGKILL");
    const recordedAt = async (key: string) =>
      (
        (await s.app.store.db.prepare("SELECT checked_at FROM heartbeats WHERE check_key = ?").get(key)) as
          { checked_at: number } | undefined
      )?.checked_at;
    // Taken over within one lease period: inside-2 is handed each check when its lease runs out
    // (no later than LEASE_MS after the kill), so the result is in once the check has run (1.5 s);
    // 1 s more for the wait's tick and a loaded machine.
    await eventually(
      async () => (await Promise.all(held.map(recordedAt))).every((at) => at !== undefined),
      LEASE_MS + 10_000,
    );
    for (const key of held)
      expect(((await recordedAt(key)) as number) - killedAt, key).toBeLessThanOrEqual(LEASE_MS + SLOW_MS + 1_000);
    await new Promise((r) => setTimeout(r, 8_500));
    const rows = (await s.app.store.db
      .prepare(
        `SELECT monitor_id, check_key FROM heartbeats WHERE location = 'inside' AND monitor_id IN (${ids.map(() => "?").join(",")}) ORDER BY check_key`,
      )
      .all(...ids)) as { monitor_id: string; check_key: string }[];
    // Recorded twice: none (one heartbeat per check key).
    expect(new Set(rows.map((r) => r.check_key)).size).toBe(rows.length);
    // Lost: none. Each monitor's checks follow its cadence without a gap (4 s apart), past the kill.
    for (const id of ids) {
      const dues = rows
        .filter((r) => r.monitor_id === id)
        .map((r) => Number(r.check_key.split("/")[2]))
        .sort((a, b) => a - b);
      expect(dues.length, id).toBeGreaterThanOrEqual(3);
      for (let i = 1; i < dues.length; i++)
        expect((dues[i] as number) - (dues[i - 1] as number), `${id} gap`).toBe(4_000);
      expect(dues.at(-1) as number).toBeGreaterThan(killedAt);
    }
    expect(agents.get("inside-2")?.log).not.toMatch(/refused|fatal/i);
  });
});
