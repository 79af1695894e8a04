import { absoluteUrl } from "../common";
import { HOST, type MonitorTypeDescriptor, PORT, urlMatching, urlRequired } from "../monitor-type";

/** A TCP connection that opens. */
export const tcp = {
  order: 3,
  url: urlMatching(`^tcp://${HOST}:${PORT}/?$`, "must be tcp://host:port for tcp monitors"),
  checkUrl: urlRequired("tcp", (raw) =>
    absoluteUrl(raw, (url) => {
      if (url.protocol !== "tcp:" || !url.hostname || !url.port) return "must be tcp://host:port for tcp monitors";
      if (url.pathname && url.pathname !== "/") return "must be tcp://host:port with no path";
      return undefined;
    }),
  ),
  doc: { url: "`tcp://host:port`", fields: [], up: "a connection opens" },
} satisfies MonitorTypeDescriptor;
