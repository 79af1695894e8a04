import { describeKilledUpSkippingCheckpoints } from "./killed-up-skipped-checkpoints";

// One round of 16 monitors here (four killed runs, about 3 minutes); the README's figures come from
// `KILLED_UP_ROUNDS=5 KILLED_UP_MONITORS=24 npx vitest run test/engine/killed-up-skipped-checkpoints.int.test.ts`.
describeKilledUpSkippingCheckpoints("pulumi up and destroy with PULUMI_SKIP_CHECKPOINTS=true, killed with SIGKILL", {
  monitors: Number(process.env.KILLED_UP_MONITORS ?? 16),
  rounds: Number(process.env.KILLED_UP_ROUNDS ?? 1),
  // A round takes about 3 minutes on an idle machine, over 7 on a loaded one.
  timeoutMs: 900_000 * Number(process.env.KILLED_UP_ROUNDS ?? 1),
});
