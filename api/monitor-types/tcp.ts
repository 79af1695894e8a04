import { HOST, type MonitorTypeDescriptor, PORT, urlMatching } from "./descriptor";

/** A TCP connection that opens. */
export const tcp = {
  url: urlMatching(`^tcp://${HOST}:${PORT}/?$`, "must be tcp://host:port for tcp monitors"),
  doc: { url: "`tcp://host:port`", fields: [], up: "a connection opens" },
} satisfies MonitorTypeDescriptor;
