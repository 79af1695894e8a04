import { browserScriptProblem } from "../browser-script";
import type { ErrorDetail } from "../common";
import { f, type MonitorTypeDescriptor, noUrl, nothing } from "../monitor-type";

/** A Playwright script run in the sandbox. */
export const browser = {
  order: 13,
  url: nothing,
  checkUrl: noUrl("browser", "the script opens its pages"),
  violations: (m) => {
    const out: ErrorDetail[] = [];
    if (m.script === null)
      out.push({ field: "script", message: "is required for browser monitors (the Playwright script)" });
    else {
      const problem = browserScriptProblem(m.script);
      if (problem) out.push({ field: "script", message: problem });
    }
    if (m.body !== null)
      out.push({ field: "body", message: "is not allowed for browser monitors (the script makes its requests)" });
    if (m.assertions.length > 0)
      out.push({
        field: "assertions",
        message: "are not allowed for browser monitors (the script's expect() calls are its assertions)",
      });
    return out;
  },
  fields: () => ({
    body: nothing,
    variables: f.variables.optional(),
    script: f.script.unwrap(),
  }),
  doc: {
    url: "none (the script opens its pages)",
    fields: ["script", "variables", "verifyTls"],
    up: "the Playwright script runs to its end in the sandbox: every `expect` passes and nothing is refused by the outbound policy",
  },
} satisfies MonitorTypeDescriptor;
