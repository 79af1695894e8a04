import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";

describe("npm run demo", () => {
  it("deploys full-stack, shows real checks and the public document, catches drift, and cleans up", async () => {
    const { code, stdout } = await new Promise<{ code: number; stdout: string }>((resolve) => {
      execFile(
        join(REPO_ROOT, "node_modules/.bin/node"),
        [join(REPO_ROOT, "dist/scripts/demo.js")],
        { timeout: 300_000, maxBuffer: 16 * 1024 * 1024 },
        (err, out) => resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout: out }),
      );
    });
    expect(code, stdout.slice(-3000)).toBe(0);
    expect(stdout).toMatch(/\+ 9 created/);
    expect(stdout).toMatch(/homepage\s+up in \d+ ms/);
    expect(stdout).toMatch(/"status": "operational"/);
    expect(stdout).toMatch(
      /uptime:Monitor homepage: `pulumi up` will update it\n\s+intervalSec: live 900, declared 60\n\s+paused: live true, declared false/,
    );
    expect(stdout).toMatch(/in sync with the live service/);
    expect(stdout).toMatch(/Demo finished\./);
  });
});
