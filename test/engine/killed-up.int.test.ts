import { describeKilledUp } from "./killed-up";

describeKilledUp("a pulumi up killed with SIGKILL during creates", {
  monitors: 40,
  rounds: Number(process.env.KILLED_UP_ROUNDS ?? 2),
  // Two rounds take about 60 s on an idle machine, and over 300 s on a loaded one (KILLED_UP_ROUNDS for more).
  timeoutMs: 720_000,
  program: { program: "test/engine/programs/fleet" },
  project: "uptime-fleet",
  // The stack and its StackIdentity resource.
  others: 2,
});
