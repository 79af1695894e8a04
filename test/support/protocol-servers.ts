import { createSocket } from "node:dgram";
import type { AddressInfo } from "node:net";
import {
  type Metadata,
  Server,
  ServerCredentials,
  ServerInterceptingCall,
  type ServerInterceptor,
} from "@grpc/grpc-js";
import { HealthImplementation, type ServingStatusMap } from "grpc-health-check";
import selfsigned from "selfsigned";
import { WebSocketServer } from "ws";
import { useStarted } from "./use-server";

/** A local gRPC server with the standard health service (grpc-health-check), plaintext or TLS. */
export interface GrpcHealthServer {
  /** `grpc://127.0.0.1:port` or, with TLS, `grpcs://localhost:port`. */
  url: string;
  health: HealthImplementation;
  /** The metadata of each call received, names lower-cased. */
  metadata: Record<string, string>[];
  close(): Promise<void>;
}

/** A self-signed certificate for `localhost` (selfsigned), valid for `days` more days. */
export async function localhostCert(days = 30): Promise<{ key: string; cert: string }> {
  const pems = await selfsigned.generate([{ name: "commonName", value: "localhost" }], {
    keyType: "ec",
    algorithm: "sha256",
    notBeforeDate: new Date(Date.now() - 86_400_000),
    notAfterDate: new Date(Date.now() + days * 86_400_000),
    extensions: [{ name: "subjectAltName", altNames: [{ type: 2, value: "localhost" }] }],
  } as never);
  return { key: pems.private, cert: pems.cert };
}

export async function startGrpcHealthServer(
  statuses: ServingStatusMap,
  options: { tls?: boolean } = {},
): Promise<GrpcHealthServer> {
  const metadata: Record<string, string>[] = [];
  const record: ServerInterceptor = (_method, call) =>
    new ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (md: Metadata, mdNext) => {
            metadata.push(Object.fromEntries(Object.entries(md.getMap()).map(([k, v]) => [k, String(v)])));
            mdNext(md);
          },
        }),
    });
  const server = new Server({ interceptors: [record] });
  const health = new HealthImplementation(statuses);
  health.addToServer(server);
  const credentials = options.tls
    ? await localhostCert().then(({ key, cert }) =>
        ServerCredentials.createSsl(null, [{ private_key: Buffer.from(key), cert_chain: Buffer.from(cert) }]),
      )
    : ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", credentials, (err, p) => (err ? reject(err) : resolve(p))),
  );
  return {
    url: options.tls ? `grpcs://localhost:${port}` : `grpc://127.0.0.1:${port}`,
    health,
    metadata,
    close: () => new Promise((resolve) => server.tryShutdown(() => resolve())),
  };
}

/**
 * A local WebSocket server (ws): `/greet` sends `{"status":"ok"}` on connect, `/echo` answers each
 * message with `echo:<message>`, `/silent` never sends. It keeps each handshake's headers.
 */
export interface WebSocketTarget {
  url: string;
  headers: Record<string, string | string[] | undefined>[];
  close(): Promise<void>;
}

export async function startWebSocketServer(): Promise<WebSocketTarget> {
  const headers: WebSocketTarget["headers"] = [];
  const wss = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  wss.on("connection", (socket, req) => {
    headers.push(req.headers);
    if (req.url === "/greet") socket.send(JSON.stringify({ status: "ok" }));
    if (req.url === "/echo") socket.on("message", (data) => socket.send(`echo:${String(data)}`));
  });
  await new Promise<void>((resolve) => wss.once("listening", resolve));
  return {
    url: `ws://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    headers,
    close: () =>
      new Promise((resolve) => {
        for (const client of wss.clients) client.terminate();
        wss.close(() => resolve());
      }),
  };
}

/** A local UDP echo (node:dgram): each datagram is answered with `pong:<datagram>`, unless it is `quiet`. */
export interface UdpEcho {
  url: string;
  close(): Promise<void>;
}

export async function startUdpEcho(): Promise<UdpEcho> {
  const socket = createSocket("udp4");
  socket.on("message", (data, from) => {
    if (String(data) !== "quiet") socket.send(`pong:${String(data)}`, from.port, from.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  return {
    url: `udp://127.0.0.1:${socket.address().port}`,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

/** A UDP port on loopback with nothing listening: bound, then closed. */
export async function closedUdpPort(): Promise<number> {
  const socket = createSocket("udp4");
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address();
  await new Promise<void>((resolve) => socket.close(() => resolve()));
  return port;
}

/** One target of each protocol, as `useProtocolTargets` answers them. */
export interface ProtocolTargets {
  grpc: GrpcHealthServer;
  ws: WebSocketTarget;
  udp: UdpEcho;
}

/**
 * A plaintext gRPC health server answering `statuses`, a WebSocket server and a UDP echo, each
 * started in a `beforeAll` of the block and closed in its `afterAll` (see `useStarted`).
 */
export function useProtocolTargets(statuses: ServingStatusMap): ProtocolTargets {
  return {
    grpc: useStarted("the gRPC server of useProtocolTargets()", () => startGrpcHealthServer(statuses)),
    ws: useStarted("the WebSocket server of useProtocolTargets()", startWebSocketServer),
    udp: useStarted("the UDP echo of useProtocolTargets()", startUdpEcho),
  };
}
