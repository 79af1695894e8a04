import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { npmInstall, packPackage, sdkVersion } from "../../scripts/packed";
import { useServer, useStack } from "../support/engine-suite";

// One message per rule of test/engine/policy-packs/uptime-rules, each from a policy typed on a
// different resource class (validateResourceOfType).
const VIOLATIONS = [
  "intervalSec is 30: monitors check at most once a minute (60 or more).",
  "channel name 'pager' must start with 'team-'.",
  "status page slug 'public' must start with 'status-'.",
  "maintenance window lasts 6 hours: four at most.",
];

describe("a CrossGuard policy pack typed on pulumi-uptime's classes (pulumi preview --policy-pack)", () => {
  let packDir: string;
  const s = useServer();
  const { stack } = useStack({ program: "test/engine/programs/policy-stack", server: s });

  beforeAll(async () => {
    // The pack as its author has it: @pulumi/policy from the registry, pulumi-uptime from its tarball.
    packDir = mkdtempSync(join(tmpdir(), "pulumi-uptime-policy-pack-"));
    cpSync(join(__dirname, "policy-packs", "uptime-rules"), packDir, { recursive: true });
    // The SDK the CLI was built for, as the pack's lock file would pin it.
    npmInstall(packDir, [packPackage("provider", packDir), `@pulumi/pulumi@${sdkVersion()}`]);
  }, 300_000);

  afterAll(() => {
    if (packDir) rmSync(packDir, { recursive: true, force: true });
  });

  it("fails the preview of a stack that breaks a rule of each class, naming every violation", async () => {
    await stack.setConfig("violate", { value: "true" });
    const failure = await stack.preview({ policyPacks: [packDir] }).then(
      () => "the preview passed",
      (err: Error) => err.message,
    );
    for (const message of VIOLATIONS) expect(failure).toContain(message);
    expect(failure).toContain("mandatory");
  });

  it("passes the preview of a compliant stack", async () => {
    await stack.setConfig("violate", { value: "false" });
    const preview = await stack.preview({ policyPacks: [packDir] });
    expect(preview.changeSummary).toEqual({ create: 6 });
    for (const message of VIOLATIONS) expect(preview.stdout).not.toContain(message);
  });
});
