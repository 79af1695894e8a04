import type { Stack } from "@pulumi/pulumi/automation";
import { expect, it } from "vitest";
import type { TestServer } from "../support/server";
import { diffedProperties } from "./diff-output";

/** The stack under test and its server, once the suite's setup has run. */
export type ReplaceContext = () => Promise<{ stack: Stack; s: TestServer }>;

/**
 * The tests every `replaceOnChanges` suite runs on a stack whose monitor `probe` declares
 * `replaceOnChanges: [intervalSec]`, with config `interval` and `tag`: a new tag updates in place,
 * a new interval replaces the monitor (the old one is deleted), and each preview lists only the
 * property that changed.
 */
export function itHonoursReplaceOnChanges(context: ReplaceContext): void {
  let first: unknown;
  const monitorId = async (stack: Stack) => (await stack.outputs()).monitorId?.value;
  const live = async (s: TestServer, id: unknown) => (await s.call("GET", `/api/v1/monitors/${String(id)}`)).body;

  it("deploys a monitor declared with replaceOnChanges: [intervalSec]", async () => {
    const { stack } = await context();
    await stack.up();
    first = await monitorId(stack);
    expect(first).toMatch(/^mon_/);
  });

  it("a change of another property updates the monitor in place; the preview lists only that property", async () => {
    const { stack } = await context();
    await stack.setConfig("tag", { value: "b" });
    const preview = await stack.preview({ diff: true });
    expect(preview.changeSummary).toMatchObject({ update: 1 });
    expect(diffedProperties(preview.stdout, "probe")).toEqual(["tags"]);
    await stack.up();
    expect(await monitorId(stack)).toBe(first);
  });

  it("a change of intervalSec replaces the monitor, deleting the old one; the preview lists only intervalSec", async () => {
    const { stack, s } = await context();
    await stack.setConfig("interval", { value: "120" });
    const preview = await stack.preview({ diff: true });
    expect(preview.changeSummary).toMatchObject({ replace: 1 });
    expect(diffedProperties(preview.stdout, "probe")).toEqual(["intervalSec"]);
    await stack.up();
    const second = await monitorId(stack);
    expect(second).not.toBe(first);
    expect((await live(s, first)).error.code).toBe("not_found");
    expect((await live(s, second)).data).toMatchObject({ interval_sec: 120, tags: ["b"] });
    const after = (await stack.preview()).changeSummary;
    expect(after).not.toHaveProperty("replace");
    expect(after).not.toHaveProperty("update");
  });
}
