import { type MonitorTypeDescriptor, noUrl, nothing } from "../monitor-type";

/** Pinged at its push URL, not probed. */
export const heartbeat = {
  order: 4,
  url: nothing,
  checkUrl: noUrl("heartbeat", "they are pinged, not probed"),
  fields: () => ({
    degraded_response_ms: nothing,
    max_response_ms: nothing,
    locations: nothing,
    retry: nothing,
  }),
  doc: {
    url: "none (it is pinged at its `pushUrl`)",
    fields: ["graceSec", "pushUrl"],
    up: "a ping arrived within `intervalSec` + `graceSec`",
  },
} satisfies MonitorTypeDescriptor;
