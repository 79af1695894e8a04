import { protocolAssertionViolations, protocolUrlProblem } from "../monitor-protocols";
import { f, HOST, type MonitorTypeDescriptor, PORT, urlMatching, urlRequired } from "../monitor-type";

/** A UDP datagram and its reply. */
export const udp = {
  order: 9,
  url: urlMatching(`^udp://${HOST}:${PORT}/?$`, "must be udp://host:port for udp monitors"),
  fields: () => ({
    body: f.body.unwrap(),
    assertions: f.assertions.optional(),
  }),
  checkUrl: urlRequired("udp", (url) => protocolUrlProblem("udp", url)),
  violations: (m) => [
    ...(m.body === null ? [{ field: "body", message: "is required for udp monitors (the datagram sent)" }] : []),
    ...protocolAssertionViolations("udp", m.assertions),
  ],
  doc: {
    url: "`udp://host:port`",
    fields: ["body", "assertions"],
    up: "a reply to `body` arrives and the assertions pass",
  },
} satisfies MonitorTypeDescriptor;
