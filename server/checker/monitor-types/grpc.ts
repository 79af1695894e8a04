import {
  type ChannelCredentials,
  type Client,
  credentials,
  makeGenericClientConstructor,
  Metadata,
  type ServiceError,
  status,
} from "@grpc/grpc-js";
import { service as healthService } from "grpc-health-check";
import { assertTargetAllowed } from "../../outbound";
import type { CheckedMonitor } from "../monitor-fields";
import { guarded, type ProbeContext, type ProbeResult } from "../probe";
import { allowedAddress, judgeReply, timedOut } from "../protocols/reply";
import type { MonitorType } from "./monitor-type";

/** The client of `grpc.health.v1.Health`, from the protocol's own definition. */
const HealthClient = makeGenericClientConstructor(healthService, "Health");

type HealthCheck = (
  request: { service: string },
  metadata: Metadata,
  options: { deadline: number },
  callback: (err: ServiceError | null, reply?: { status: string }) => void,
) => void;

/**
 * Asks the server's health service about `grpc_service` (the whole server when null) over the
 * dialled address, TLS for `grpcs://` with the URL's host as the certificate's name.
 */
export function probeGrpc(monitor: CheckedMonitor, ctx: ProbeContext): Promise<ProbeResult> {
  return guarded(monitor.timeout_sec, async (started) => {
    const url = new URL(monitor.url ?? "");
    assertTargetAllowed(url, ctx.allowPrivate);
    const { address, family } = await allowedAddress(url.hostname, ctx);
    const authority = `${url.hostname}:${url.port}`;
    const tls = url.protocol === "grpcs:";
    const creds: ChannelCredentials = tls
      ? credentials.createSsl(null, null, null, { rejectUnauthorized: monitor.verify_tls })
      : credentials.createInsecure();
    const client = new HealthClient(`${family === 6 ? `[${address}]` : address}:${url.port}`, creds, {
      "grpc.default_authority": authority,
      ...(tls ? { "grpc.ssl_target_name_override": url.hostname.replace(/^\[|\]$/g, "") } : {}),
    }) as unknown as Client & { check: HealthCheck };
    const metadata = new Metadata();
    for (const [name, value] of Object.entries(monitor.headers)) metadata.set(name, value);
    try {
      const reply = await new Promise<{ status: string }>((resolve, reject) =>
        client.check(
          { service: monitor.grpc_service ?? "" },
          metadata,
          { deadline: Date.now() + monitor.timeout_sec * 1000 },
          (err, res) => (err ? reject(err) : resolve(res as { status: string })),
        ),
      );
      const serving = reply.status === "SERVING";
      return await judgeReply(
        ctx,
        monitor,
        started,
        reply.status,
        serving ? undefined : `health of ${describe(monitor)} is ${reply.status}, expected SERVING`,
      );
    } catch (err) {
      // The server answered, but not about this service: a verdict, not a connection failure.
      if ((err as ServiceError).code === status.NOT_FOUND) {
        return await judgeReply(
          ctx,
          monitor,
          started,
          "SERVICE_UNKNOWN",
          `the health service does not know ${describe(monitor)} (NOT_FOUND)`,
        );
      }
      throw grpcError(err as ServiceError, monitor);
    } finally {
      client.close();
    }
  });
}

function describe(monitor: CheckedMonitor): string {
  return monitor.grpc_service ? `service ${monitor.grpc_service}` : "the server";
}

/** A failed call as the probe's failure classes it: deadline a timeout, TLS a tls error, the rest connect. */
function grpcError(err: ServiceError, monitor: CheckedMonitor): Error {
  if (err.code === status.DEADLINE_EXCEEDED) return timedOut(monitor.timeout_sec);
  const code = /certificate|SSL|TLS|self[- ]signed/i.test(err.details ?? "")
    ? "ERR_TLS_CERT"
    : err.code === status.UNAVAILABLE
      ? "ECONNREFUSED"
      : `GRPC_${status[err.code] ?? err.code}`;
  const why =
    err.code === status.UNIMPLEMENTED
      ? "the server does not implement grpc.health.v1 (UNIMPLEMENTED)"
      : `${status[err.code] ?? err.code}: ${err.details}`;
  return Object.assign(new Error(`gRPC health check failed: ${why}`), { code });
}

/** gRPC monitors: up while `grpc.health.v1.Health/Check` answers SERVING and the assertions pass. */
export const grpcType: MonitorType = {
  name: "grpc",
  probes: true,
  check: (monitor, ctx) => probeGrpc(monitor, ctx.probe),
};
