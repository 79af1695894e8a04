import { type ChildProcess, spawn } from "node:child_process";
import { request } from "undici";
import { REPO_ROOT } from "../../../scripts/pulumi-engine";
import { eventually } from "../../support/target";

/** `uptime-server serve` as users run it: the built CLI in a process of its own. */
export interface Served {
  child: ChildProcess;
  url: string;
  log: () => string;
  /** Sends a JSON request with `key` (and `headers`); throws when the process does not answer. */
  call: (
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ) => Promise<{ status: number; body: string; headers: Record<string, unknown> }>;
}

/** Starts `uptime-server serve --db <db>` with `key` as its dev key and `extra` arguments. */
export async function serveProcess(db: string, key: string, extra: string[] = []): Promise<Served> {
  const args = [
    "dist/server/cli.js",
    "serve",
    "--port",
    "0",
    "--db",
    db,
    "--allow-private-targets",
    "--log-level",
    "info",
    ...extra,
  ];
  const child = spawn(process.execPath, args, {
    cwd: REPO_ROOT,
    env: { ...process.env, UPTIME_DEV_KEY: key },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout?.on("data", (d) => (out = (out + d).slice(-200_000)));
  child.stderr?.on("data", (d) => (out = (out + d).slice(-200_000)));
  const url = await eventually(async () => {
    if (child.exitCode !== null) throw new Error(`the server exited with ${child.exitCode}: ${out}`);
    return /"msg":"Server listening at (http:\/\/127\.0\.0\.1:\d+)"/.exec(out)?.[1];
  }, 60_000);
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await request(`${url}${path}`, {
      method: method as "POST",
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.statusCode, body: (await res.body.text()) || "{}", headers: res.headers };
  };
  return { child, url, log: () => out, call };
}

/** Writes channels through `server` until `running()` is false; the ids answered 201 go into `accepted`. */
export async function writeLoad(server: Served, accepted: string[], running: () => boolean): Promise<void> {
  for (let i = 0; running(); i++) {
    try {
      const res = await server.call("POST", "/api/v1/channels", {
        name: `c${i}`,
        type: "webhook",
        config: { url: "https://example.com/hook" },
      });
      if (res.status === 201) accepted.push(JSON.parse(res.body).data.id);
      else if (res.status === 429) await new Promise((r) => setTimeout(r, 200));
    } catch {
      return; // the process is gone
    }
  }
}
