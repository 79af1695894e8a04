import { f, type MonitorTypeDescriptor, urlMatching } from "./descriptor";

/** A WebSocket whose first message is judged. */
export const websocket = {
  url: urlMatching(/^wss?:\/\/[^\s/?#@\\]+(?:[/?#]\S*)?$/, "must be ws:// or wss:// for websocket monitors"),
  fields: () => ({
    assertions: f.assertions.optional(),
  }),
  doc: { url: "`ws(s)://…`", fields: ["headers", "body", "assertions", "verifyTls", "followRedirects"], up: "the first message arrives and the assertions pass" },
} satisfies MonitorTypeDescriptor;
