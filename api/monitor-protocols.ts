import { z } from "zod";
import { type AssertionSource, assertionSourceViolations } from "./assertions";
import { absoluteUrl, type ErrorDetail } from "./common";
import { type OwnFieldValue, ownStringField } from "./own-field";

/**
 * Monitors of protocols other than HTTP: `grpc` (the standard health-checking protocol,
 * `grpc.health.v1.Health/Check`), `websocket` (connect, send `body`, read the first message) and
 * `udp` (send `body`, read the reply). They share the monitor's fields where they mean the same:
 * `headers` are the gRPC metadata or the WebSocket handshake's headers (secret), `body` is the
 * message or datagram sent (secret), `assertions` judge what came back, `verify_tls` the
 * certificate of `grpcs://` and `wss://`. The one field of their own is `grpc_service`.
 */

/** The protocol types, in the order the README lists them. */
export const PROTOCOL_TYPES = ["grpc", "websocket", "udp"] as const;
export type ProtocolType = (typeof PROTOCOL_TYPES)[number];

/** Sources assertions of each protocol type may read (`text_body` is the reply, or the serving status's name). */
export const PROTOCOL_ASSERTION_SOURCES: Readonly<Record<ProtocolType, readonly AssertionSource[]>> = {
  grpc: ["text_body", "response_time"],
  websocket: ["text_body", "json_body", "response_time"],
  udp: ["text_body", "json_body", "response_time"],
};

/** The URL shapes, as regular expressions of the part after the scheme, and in words. */
export const PROTOCOL_URLS: Readonly<
  Record<ProtocolType, { schemes: readonly string[]; port: boolean; words: string }>
> = {
  grpc: { schemes: ["grpc:", "grpcs:"], port: true, words: "grpc://host:port (plaintext) or grpcs://host:port (TLS)" },
  websocket: { schemes: ["ws:", "wss:"], port: false, words: "ws:// or wss://" },
  udp: { schemes: ["udp:"], port: true, words: "udp://host:port" },
};

const SERVICE = /^[A-Za-z0-9_.\-/]*$/;

/** The field of its own, in each form it is read in. */
export const GRPC_SERVICE_FIELD = ownStringField({
  api: "grpc_service",
  property: "grpcService",
  type: "grpc",
  write: z
    .string()
    .max(200, "must be at most 200 characters")
    .regex(
      SERVICE,
      "must be a service name such as grpc.health.v1.Health or package.Service (letters, digits, _ . - /)",
    ),
  description: "gRPC monitors: the service whose health `grpc.health.v1` is asked; none: the whole server.",
});

/** The field as stored and returned. */
export type MonitorProtocolSpec = OwnFieldValue<typeof GRPC_SERVICE_FIELD>;

/** Whether `type` is a protocol type. */
export function isProtocolType(type: string): type is ProtocolType {
  return (PROTOCOL_TYPES as readonly string[]).includes(type);
}

/** Why `raw` is not a URL of protocol `type`, or undefined. */
export function protocolUrlProblem(type: ProtocolType, raw: string): string | undefined {
  const shape = PROTOCOL_URLS[type];
  return absoluteUrl(raw, (url) => {
    if (!shape.schemes.includes(url.protocol) || !url.hostname) return `must be ${shape.words} for ${type} monitors`;
    if (shape.port && !url.port) return `must name a port: ${shape.words}`;
    if (shape.port && ((url.pathname && url.pathname !== "/") || url.search || url.hash))
      return `must be ${shape.words} with no path`;
    return undefined;
  });
}

/** The assertions of a protocol monitor reading what its type does not answer. */
export function protocolAssertionViolations(type: ProtocolType, assertions: readonly unknown[]): ErrorDetail[] {
  return assertionSourceViolations(type, PROTOCOL_ASSERTION_SOURCES[type], assertions);
}
