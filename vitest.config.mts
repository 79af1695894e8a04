import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // Examples with their own tests (examples/testing-kit) run too, against the packed package.
    include: ["test/**/*.test.ts", "examples/*/test/**/*.test.ts"],
    globalSetup: ["test/support/global-setup.ts"],
    pool: "forks",
    // Engine tests run `pulumi up` for real: minutes, not milliseconds.
    testTimeout: 240_000,
    hookTimeout: 240_000,
    reporters: ["default"],
  },
});
