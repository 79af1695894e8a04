import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { ConfigMap, Stack } from "@pulumi/pulumi/automation";
import { beforeAll, describe, expect, it } from "vitest";
import { useEngine, useServer } from "../support/engine-suite";
import type { TestServer } from "../support/server";
import { programCopy } from "./programs";

interface Example {
  name: string;
  config: (s: TestServer, secondKey: string) => ConfigMap;
  /** A change a user would make: config to set, or a file edit in the program folder. */
  edit: (stack: Stack, workDir: string) => Promise<void>;
}

// examples/full-stack is deployed by test/engine/drift.int.test.ts and test/engine/demo.int.test.ts.
const EXAMPLES: Example[] = [
  {
    name: "basic",
    config: () => ({ siteUrl: { value: "https://www.example.com" } }),
    edit: (stack) => stack.setConfig("siteUrl", { value: "https://www.example.org" }),
  },
  {
    name: "from-config",
    config: () => ({}),
    edit: async (_stack, workDir) => {
      const file = join(workDir, "monitors.yaml");
      writeFileSync(file, readFileSync(file, "utf8").replace("intervalSec: 300", "intervalSec: 600"));
    },
  },
  {
    name: "multi-account",
    config: (s, secondKey) => ({
      stagingBaseUrl: { value: s.url },
      stagingApiKey: { value: secondKey, secret: true },
    }),
    edit: (stack) => stack.setConfig("stagingUrl", { value: "https://staging2.example.com" }),
  },
];

describe("examples deploy, stay clean, update and destroy", () => {
  let secondKey: string;
  const s = useServer();
  beforeAll(async () => {
    secondKey = (await s.app.store.keys.create("staging-team", null)).key;
  });
  const engine = useEngine();

  const count = async (key?: string) => {
    const opts = key ? { key } : {};
    const [m, c, p] = await Promise.all(
      ["/api/v1/monitors", "/api/v1/channels", "/api/v1/status-pages"].map(
        async (path) => (await s.call("GET", path, undefined, opts)).body.data.length,
      ),
    );
    return (m as number) + (c as number) + (p as number);
  };

  for (const example of EXAMPLES) {
    it(`examples/${example.name}`, async () => {
      const program = programCopy(`examples/${example.name}`);
      const stack = await engine.stack(program.workDir, example.name);
      try {
        await stack.setAllConfig({
          "uptime:baseUrl": { value: s.url },
          "uptime:apiKey": { value: s.key, secret: true },
          ...example.config(s, secondKey),
        });
        const up = await stack.up({ onOutput: (l) => process.stdout.write(l) });
        // Less the stack and its identity resource (see provider/runtime/stack-identity.ts).
        const created = (up.summary.resourceChanges?.create ?? 0) - 2;
        expect(created).toBeGreaterThan(0);
        expect((await count()) + (await count(secondKey))).toBe(created);

        const again = await stack.up();
        expect(Object.keys(again.summary.resourceChanges ?? {})).toEqual(["same"]);

        await example.edit(stack, program.workDir);
        const edited = await stack.up();
        expect(edited.summary.resourceChanges?.update ?? 0).toBeGreaterThan(0);
        expect((await stack.preview()).changeSummary).toEqual({ same: created + 2 });

        await stack.destroy();
        expect((await count()) + (await count(secondKey))).toBe(0);
      } finally {
        await stack.workspace.removeStack(stack.name, { force: true }).catch(() => undefined);
        program.remove();
      }
    });
  }
});
