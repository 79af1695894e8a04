import { readFileSync } from "node:fs";
import { createServer } from "node:net";

/**
 * The kernel's ephemeral range: what a listener that asks for port 0 (every test server, every Pulumi
 * engine's gRPC server) is given, and what an outgoing connection's own end uses.
 */
function ephemeralLow(): number {
  try {
    const low = Number(readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8").trim().split(/\s+/)[0]);
    if (Number.isInteger(low) && low > 2048) return low;
  } catch {
    // Not Linux: IANA's range starts at 49152 (macOS and Windows use it).
  }
  return 49152;
}

function bindsOnLoopback(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/**
 * A port of 127.0.0.1 for a process that is told its port (`--port`, PostgreSQL's `-p`): free when
 * answered, and below the kernel's ephemeral range, so that no listener asking for any port and no
 * outgoing connection can be given it between this answer and that process's bind. (A port taken from
 * port 0 and let go is the next one the kernel hands out: with the engine tests' processes binding
 * port 0 by the dozen, the process told it lost it to one of them.) Two callers at once each draw at
 * random from about 20,000 ports.
 */
export async function freeFixedPort(): Promise<number> {
  const high = ephemeralLow() - 1;
  const low = Math.max(1024, high - 20_000);
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (await bindsOnLoopback(port)) return port;
  }
  throw new Error(`no free port of 127.0.0.1 between ${low} and ${high} after 50 tries`);
}
