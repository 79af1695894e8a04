#!/usr/bin/env node
// Ensures the `ping` that ping monitors run (iputils), the way ensure-chromium.mjs ensures a
// browser: `ping` on PATH that can send an echo request to 127.0.0.1. When there is none and we
// run as root on Debian, installs the `iputils-ping` package with apt-get (it gives the binary
// cap_net_raw). Otherwise fails with the exact command. A ping that is installed but may not
// send is named too: it needs cap_net_raw, or net.ipv4.ping_group_range covering the user's group.
// Prints the binary's path as its last line; `--json` prints a JSON object instead.
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { findOrAptInstall } from "./apt-install.mjs";

/** What a user without root runs; printed verbatim in the error. */
export const INSTALL_COMMAND = "sudo apt-get update && sudo apt-get install -y iputils-ping";
/** What lets an installed ping send without root: either is enough. */
export const PERMISSION_COMMANDS = [
  'sudo setcap cap_net_raw+ep "$(command -v ping)"',
  'sudo sysctl -w net.ipv4.ping_group_range="0 2147483647"',
];

function onPath(env) {
  for (const dir of (env.PATH ?? "").split(delimiter)) {
    const file = dir ? join(dir, "ping") : "";
    try {
      if (file && existsSync(file)) {
        accessSync(file, constants.X_OK);
        return file;
      }
    } catch {
      // not executable: keep looking
    }
  }
  return undefined;
}

/** Whether `file` sends one echo request to 127.0.0.1 and gets the reply; its error output otherwise. */
function probe(file, env) {
  const run = spawnSync(file, ["-n", "-c", "1", "-W", "2", "127.0.0.1"], { encoding: "utf8", env, timeout: 10_000 });
  return run.status === 0
    ? { ok: true }
    : { ok: false, why: (run.stderr || run.stdout || String(run.error ?? "")).trim().split("\n").at(-1) };
}

/**
 * Finds a `ping` on PATH that works, without installing anything; throws when one is there but
 * may not send (the capability or the sysctl is missing).
 * @param {{ env?: NodeJS.ProcessEnv }} [options]
 * @returns {{ path: string, source: "path" } | undefined}
 */
export function findPing({ env = process.env } = {}) {
  const file = onPath(env);
  if (!file) return undefined;
  const result = probe(file, env);
  if (!result.ok) {
    throw new Error(
      `${file} cannot send echo requests (${result.why}). Ping monitors need the binary with cap_net_raw or ` +
        `net.ipv4.ping_group_range covering the server's group; run one of:\n\n  ${PERMISSION_COMMANDS.join("\n  ")}\n`,
    );
  }
  return { path: file, source: "path" };
}

/**
 * Finds ping, or installs Debian's iputils-ping when running as root with apt-get; otherwise
 * throws an error that gives the exact command to run.
 * @param {{ env?: NodeJS.ProcessEnv, uid?: number, hasApt?: boolean }} [options]
 * @returns {{ path: string, source: "path" | "installed" }}
 */
export function ensurePing(options = {}) {
  return findOrAptInstall(options, {
    tool: "ping",
    pkg: "iputils-ping",
    find: () => findPing(options),
    findInstalled: () => findPing({ env: { PATH: "/usr/bin:/bin" } }),
    notInstalled: "apt-get installed `iputils-ping` but no ping was found in /usr/bin or /bin",
    missing: (hasApt) => {
      const how = hasApt
        ? `run:\n\n  ${INSTALL_COMMAND}\n\n`
        : "install iputils' ping with your system's package manager, ";
      return `Ping monitors need the \`ping\` binary (iputils), and none was found on PATH. To install it, ${how}then make sure it may send (cap_net_raw or net.ipv4.ping_group_range).`;
    },
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  try {
    const found = ensurePing();
    if (process.argv.includes("--json")) console.log(JSON.stringify(found));
    else {
      process.stderr.write(`ping (${found.source}):\n`);
      console.log(found.path);
    }
  } catch (err) {
    process.stderr.write(`error: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  }
}
