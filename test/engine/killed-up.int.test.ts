import { offlineEngine } from "../../scripts/pulumi-engine";
import { describeKilledUp } from "./killed-up";
import { programCopy } from "./programs";

describeKilledUp("a pulumi up killed with SIGKILL during creates", {
  monitors: 40,
  rounds: 3,
  // Three rounds take about 90 s on an idle machine, and over 500 s on a loaded one.
  timeoutMs: 720_000,
  rig: async () => {
    const engine = await offlineEngine();
    const program = programCopy("test/engine/programs/fleet");
    return {
      engine,
      workDir: program.workDir,
      project: "uptime-fleet",
      // The stack and its StackIdentity resource.
      others: 2,
      dispose: () => {
        engine.dispose();
        program.remove();
      },
    };
  },
});
