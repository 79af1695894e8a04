import { spawn } from "node:child_process";
import type { Stack } from "@pulumi/pulumi/automation";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useEngine, useServer } from "../support/engine-suite";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy";
import { programCopy } from "./programs";

/**
 * Monitors per deploy, and the service's limit per key: two deploys need more than one window.
 * The service's rate (600 a minute) at a fifth of the size, so that `npm test` stays in its
 * budget; `npm run bench` runs the same steps at N = 300 and 600 per 60 s.
 */
const N = 60;
const LIMIT = 120;
const WINDOW_MS = 12_000;
/** Each deploy of N monitors, waits for the window included, on a busy machine. */
const TIMEOUT_MS = 15 * 60_000;

/**
 * Another process spending `count` requests of the key (a script, a second pipeline): GETs, four
 * at a time, each refused one retried after its `Retry-After`; with `count` 0, what the window has
 * left, up to its first 429. The key comes by environment.
 */
const SPENDER = `
const url = process.env.SPEND_URL + "/api/v1/monitors?limit=1";
const headers = { authorization: "Bearer " + process.env.SPEND_KEY };
const rest = process.env.SPEND_COUNT === "0";
let left = rest ? Infinity : Number(process.env.SPEND_COUNT);
const one = async () => {
  while (left > 0) {
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    if (res.status === 429 && rest) left = 0;
    else if (res.status === 429) await new Promise((r) => setTimeout(r, Number(res.headers.get("retry-after") ?? 1) * 1000));
    else if (res.ok) left--;
    else throw new Error("HTTP " + res.status);
  }
};
Promise.all([one(), one(), one(), one()]).then(() => process.exit(0), (e) => { console.error(e.message); process.exit(1); });
`;

function spendElsewhere(url: string, key: string, count: number): Promise<void> {
  const child = spawn(process.execPath, ["-e", SPENDER], {
    env: { ...process.env, SPEND_URL: url, SPEND_KEY: key, SPEND_COUNT: String(count) },
    stdio: ["ignore", "ignore", "inherit"],
  });
  return new Promise((resolve, reject) =>
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`spender exited ${code}`)))),
  );
}

describe(`pulumi up on an API key whose window is spent (${N} monitors per deploy, ${LIMIT} requests per ${WINDOW_MS / 1000} s)`, () => {
  let proxy: FaultProxy;
  const programs: { remove: () => void }[] = [];
  const s = useServer({ rateLimit: LIMIT, rateLimitWindowMs: WINDOW_MS });
  beforeAll(async () => {
    // Only counts what the deploys were answered; faults none.
    proxy = await startFaultProxy(s.url);
  });
  afterAll(async () => {
    await proxy?.close();
  });
  // Destroying would take windows of the limit: the server goes away with everything on it.
  const engine = useEngine();
  afterAll(() => {
    for (const program of programs) program.remove();
  });

  async function fleet(name: string, key: string): Promise<Stack> {
    const program = programCopy("test/engine/programs/fleet");
    programs.push(program);
    const stack = await engine.stack(program.workDir, name);
    await stack.setAllConfig({
      "uptime:baseUrl": { value: proxy.url },
      "uptime:apiKey": { value: key, secret: true },
      monitors: { value: String(N) },
    });
    return stack;
  }

  /** `pulumi up` with its output; it throws on any failed resource. */
  async function up(stack: Stack): Promise<{ output: string; seconds: number }> {
    let output = "";
    const started = performance.now();
    const result = await stack.up({ parallel: 32, onOutput: (out) => (output += out) });
    expect(result.summary.result).toBe("succeeded");
    // The monitors, the stack and its identity resource.
    expect(result.summary.resourceChanges).toMatchObject({ create: N + 2 });
    return { output, seconds: (performance.now() - started) / 1000 };
  }

  /** Every monitor of the stack's state exists on the service. */
  async function allCreated(stack: Stack, key: string): Promise<void> {
    const account = (await s.app.store.keys.authenticate(key))?.accountId as string;
    const deployment = (await stack.exportStack()).deployment as { resources?: { id?: string; type: string }[] };
    const ids = (deployment.resources ?? []).filter((r) => r.type.endsWith("uptime:Monitor")).map((r) => r.id);
    expect(ids).toHaveLength(N);
    const live = new Set((await s.app.store.monitors.list(account, { limit: 1000 })).items.map((m) => m.id));
    expect(ids.filter((id) => !live.has(id as string))).toEqual([]);
  }

  it(
    "two deploys back to back on one key: every monitor is created, the wait for the window never shown as an error",
    { timeout: TIMEOUT_MS },
    async () => {
      const key = (await s.app.store.keys.create("back-to-back", "pipeline")).key;
      const [first, second] = [await fleet("first", key), await fleet("second", key)];
      const before = proxy.seen.length;
      const a = await up(first);
      // Where the engine is slower than the limit, the first deploy alone leaves some of the window:
      // the rest is spent here, as a faster first deploy would (the window may still reopen before
      // the second deploy's engine sends its first request).
      await spendElsewhere(s.url, key, 0);
      const b = await up(second);
      await allCreated(first, key);
      await allCreated(second, key);
      expect(a.output + b.output).not.toContain(key);
      const answers = proxy.seen.slice(before);
      console.table({
        first: a.seconds,
        second: b.seconds,
        requests: answers.length,
        refused: answers.filter((l) => l.endsWith(" 429")).length,
      });
    },
  );

  it(
    "one deploy while another process spends the same key: every monitor is created",
    { timeout: TIMEOUT_MS },
    async () => {
      const key = (await s.app.store.keys.create("shared", "pipeline")).key;
      const stack = await fleet("shared", key);
      const before = proxy.seen.length;
      // The other process starts when the deploy does (the engine may take a while to send its first request).
      const started = async () => {
        while (proxy.seen.length === before) await new Promise((resolve) => setTimeout(resolve, 100));
      };
      const [deploy] = await Promise.all([up(stack), started().then(() => spendElsewhere(s.url, key, N))]);
      await allCreated(stack, key);
      expect(deploy.output).not.toContain(key);
      const answers = proxy.seen.slice(before);
      console.table({
        deploy: deploy.seconds,
        requests: answers.length,
        refused: answers.filter((l) => l.endsWith(" 429")).length,
      });
    },
  );
});
