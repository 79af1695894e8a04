import { f, type MonitorTypeDescriptor, nothing } from "./descriptor";

/** A Playwright script run in the sandbox. */
export const browser = {
  url: nothing,
  fields: () => ({
    body: nothing,
    variables: f.variables.optional(),
    script: f.script.unwrap(),
  }),
  doc: { url: "none (the script opens its pages)", fields: ["script", "variables"], up: "the Playwright script runs to its end in the sandbox: every `expect` passes and nothing is refused by the outbound policy" },
} satisfies MonitorTypeDescriptor;
