import { protocolAssertionViolations, protocolUrlProblem } from "../monitor-protocols";
import { f, HOST, type MonitorTypeDescriptor, nothing, PORT, urlMatching, urlRequired } from "../monitor-type";

/** The gRPC health service of a server. */
export const grpc = {
  order: 7,
  url: urlMatching(
    `^grpcs?://${HOST}:${PORT}/?$`,
    "must be grpc://host:port (plaintext) or grpcs://host:port (TLS) for grpc monitors",
  ),
  fields: () => ({
    body: nothing,
    assertions: f.assertions.optional(),
    grpc_service: f.grpc_service.optional(),
  }),
  checkUrl: urlRequired("grpc", (url) => protocolUrlProblem("grpc", url)),
  violations: (m) => [
    ...(m.body !== null
      ? [{ field: "body", message: "is not allowed for grpc monitors (the health request has no body)" }]
      : []),
    ...protocolAssertionViolations("grpc", m.assertions),
  ],
  doc: {
    url: "`grpc://host:port`, `grpcs://host:port`",
    fields: ["grpcService", "headers", "assertions", "verifyTls"],
    up: "`grpc.health.v1` answers SERVING",
  },
} satisfies MonitorTypeDescriptor;
