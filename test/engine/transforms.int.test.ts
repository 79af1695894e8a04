import { describe, expect, it } from "vitest";
import { useServer, useStack } from "../support/engine-suite";

describe("a program with a resource transform (pulumi.runtime.registerResourceTransform)", () => {
  const s = useServer();
  const { stack } = useStack({ program: "test/engine/programs/transforms", server: s });

  it("tags every monitor on the server through the transform, and a second preview shows no change", async () => {
    const up = await stack.up({ onOutput: (line) => process.stdout.write(line) });
    // The stack, its identity resource, two monitors and a channel.
    expect(up.summary.resourceChanges).toEqual({ create: 5 });
    const ids = up.outputs.monitorIds?.value as string[];
    expect(ids).toHaveLength(2);
    const tags = await Promise.all(
      ids.map(async (id) => (await s.call("GET", `/api/v1/monitors/${id}`)).body.data.tags as string[]),
    );
    expect(tags).toEqual([["prod", "team:payments"], ["team:payments"]]);

    const again = await stack.preview();
    expect(again.changeSummary).toEqual({ same: 5 });
  });
});
