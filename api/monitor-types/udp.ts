import { f, HOST, type MonitorTypeDescriptor, PORT, urlMatching } from "./descriptor";

/** A UDP datagram and its reply. */
export const udp = {
  url: urlMatching(`^udp://${HOST}:${PORT}/?$`, "must be udp://host:port for udp monitors"),
  fields: () => ({
    body: f.body.unwrap(),
    assertions: f.assertions.optional(),
  }),
  doc: { url: "`udp://host:port`", fields: ["body", "assertions"], up: "a reply to `body` arrives and the assertions pass" },
} satisfies MonitorTypeDescriptor;
