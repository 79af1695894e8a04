import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { prepareProgram, REPO_ROOT } from "../../scripts/pulumi-engine";
import { useStack } from "../support/engine-suite";

const PROGRAMS = join(__dirname, "programs");

describe("the real Pulumi engine", () => {
  // This checkout's @pulumi/pulumi and a dynamic provider of its own: no server, no package.
  const { stack } = useStack({
    program: () =>
      prepareProgram(join(PROGRAMS, "smoke"), {
        "@pulumi/pulumi": join(REPO_ROOT, "node_modules/@pulumi/pulumi"),
        "smoke-impl": join(PROGRAMS, "smoke-impl"),
      }),
  });

  it("creates, previews clean, updates and destroys a dynamic resource", async () => {
    const up = await stack.up({ onOutput: (line) => process.stdout.write(line) });
    expect(up.summary.result).toBe("succeeded");
    expect(up.summary.resourceChanges).toMatchObject({ create: 2 });
    expect(up.outputs.message?.value).toBe("hello, world");
    const id = up.outputs.id?.value as string;
    expect(id).toMatch(/^greeting-/);

    const again = await stack.preview();
    expect(again.changeSummary).toEqual({ same: 2 });

    await stack.setConfig("name", { value: "pulumi" });
    const changed = await stack.preview();
    expect(changed.changeSummary).toMatchObject({ update: 1, same: 1 });
    const updated = await stack.up();
    expect(updated.summary.resourceChanges).toMatchObject({ update: 1 });
    expect(updated.outputs.message?.value).toBe("hello, pulumi");
    expect(updated.outputs.id?.value).toBe(id);

    const destroyed = await stack.destroy();
    expect(destroyed.summary.resourceChanges).toMatchObject({ delete: 2 });
    expect(await stack.exportStack().then((s) => s.deployment.resources ?? [])).toEqual([]);
  });
});
