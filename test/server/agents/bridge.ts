import { rmSync } from "node:fs";
import { connect, createServer, type Server } from "node:net";

/**
 * A unix socket that forwards each connection to a TCP port on this namespace's loopback: how
 * agents in network namespaces of their own (loopback only) reach the server, since a socket
 * file is shared by every namespace that sees the file system. `to` can change (a restarted
 * server on another port).
 */
export async function unixBridge(
  path: string,
  to: { port: number },
): Promise<{ close: () => Promise<void>; to: { port: number } }> {
  rmSync(path, { force: true });
  const server: Server = createServer((inbound) => {
    const outbound = connect(to.port, "127.0.0.1");
    inbound.pipe(outbound).pipe(inbound);
    const end = () => {
      inbound.destroy();
      outbound.destroy();
    };
    inbound.on("error", end);
    outbound.on("error", end);
    inbound.on("close", end);
    outbound.on("close", end);
  });
  await new Promise<void>((resolve) => server.listen(path, resolve));
  return {
    to,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        // Connections still open are cut; the test is over.
        server.unref();
      }),
  };
}
