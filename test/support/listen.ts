import type { Server } from "node:http";
import type { AddressInfo } from "node:net";

/** A server listening on loopback: its URL and a close that drops open connections first. */
export interface Listening {
  url: string;
  close: () => Promise<void>;
}

/** Starts `server` on a free port of 127.0.0.1 and answers its URL (`http://127.0.0.1:<port>`) and its close. */
export async function listenOnLoopback(server: Server): Promise<Listening> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
