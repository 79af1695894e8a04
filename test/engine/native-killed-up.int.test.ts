import { describeKilledUp } from "./killed-up";

// The YAML program declares 24 monitors (YAML has no loops); the native plugin creates them.
describeKilledUp("a pulumi up of a YAML program, through the native plugin, killed with SIGKILL during creates", {
  monitors: 24,
  rounds: Number(process.env.KILLED_UP_ROUNDS ?? 1),
  timeoutMs: 420_000 * Number(process.env.KILLED_UP_ROUNDS ?? 1),
  program: { program: "native-fleet", native: {} },
  project: "uptime-native-fleet",
  // The stack (a summary leaves providers out).
  others: 1,
});
