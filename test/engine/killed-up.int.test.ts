import { describeKilledUp } from "./killed-up";

describeKilledUp("a pulumi up killed with SIGKILL during creates", {
  monitors: 40,
  // One round in `npm test` (a random kill point, recovery, the strays reported, destroy); `npm run
  // fuzz:engine` runs five (KILLED_UP_ROUNDS for another count). Two rounds took about 60 s on an idle
  // machine, and over 300 s on a loaded one.
  rounds: Number(process.env.KILLED_UP_ROUNDS ?? 1),
  timeoutMs: 600_000 * Number(process.env.KILLED_UP_ROUNDS ?? 1),
  program: { program: "test/engine/programs/fleet" },
  project: "uptime-fleet",
  // The stack and its StackIdentity resource.
  others: 2,
});
