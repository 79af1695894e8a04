import { protocolAssertionViolations, protocolUrlProblem } from "../monitor-protocols";
import { f, type MonitorTypeDescriptor, urlMatching, urlRequired } from "../monitor-type";

/** A WebSocket whose first message is judged. */
export const websocket = {
  order: 8,
  url: urlMatching(/^wss?:\/\/[^\s/?#@\\]+(?:[/?#]\S*)?$/, "must be ws:// or wss:// for websocket monitors"),
  fields: () => ({
    assertions: f.assertions.optional(),
  }),
  checkUrl: urlRequired("websocket", (url) => protocolUrlProblem("websocket", url)),
  violations: (m) => protocolAssertionViolations("websocket", m.assertions),
  doc: {
    url: "`ws(s)://…`",
    fields: ["headers", "body", "assertions", "verifyTls", "followRedirects"],
    up: "the first message arrives and the assertions pass",
  },
} satisfies MonitorTypeDescriptor;
