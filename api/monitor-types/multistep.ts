import { f, type MonitorTypeDescriptor, noUrl, nothing } from "../monitor-type";

/** HTTP steps run in order, each with its own request and assertions. */
export const multistep = {
  order: 6,
  url: nothing,
  checkUrl: noUrl("multistep", "each step has its own"),
  fields: () => ({
    steps: f.steps.min(1, "must list at least one step for multistep monitors"),
    variables: f.variables.optional(),
  }),
  doc: {
    url: "none (each step has its own)",
    fields: ["steps", "variables", "followRedirects"],
    up: "every step passes, in order",
  },
} satisfies MonitorTypeDescriptor;
