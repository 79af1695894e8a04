import type { Stack } from "@pulumi/pulumi/automation";
import { expect } from "vitest";
import type { TestServer } from "../support/server";
import { diffedProperties } from "./diff-output";

/**
 * The steps every `replaceOnChanges` test runs on a stack whose monitor `probe` declares
 * `replaceOnChanges: [intervalSec]`, with config `interval` and `tag`: a new tag updates in place,
 * a new interval replaces the monitor (the old one is deleted), and each preview lists only the
 * property that changed.
 */
export async function expectReplaceOnChanges(stack: Stack, s: TestServer): Promise<void> {
  const live = async (id: unknown) => (await s.call("GET", `/api/v1/monitors/${String(id)}`)).body;
  const monitorId = async () => (await stack.outputs()).monitorId?.value;
  await stack.up();
  const first = await monitorId();

  await stack.setConfig("tag", { value: "b" });
  const retag = await stack.preview({ diff: true });
  expect(retag.changeSummary).toMatchObject({ update: 1 });
  expect(diffedProperties(retag.stdout, "probe")).toEqual(["tags"]);
  await stack.up();
  expect(await monitorId()).toBe(first);

  await stack.setConfig("interval", { value: "120" });
  const reinterval = await stack.preview({ diff: true });
  expect(reinterval.changeSummary).toMatchObject({ replace: 1 });
  expect(diffedProperties(reinterval.stdout, "probe")).toEqual(["intervalSec"]);
  await stack.up();
  const second = await monitorId();
  expect(second).not.toBe(first);
  expect((await live(first)).error.code).toBe("not_found");
  expect((await live(second)).data).toMatchObject({ interval_sec: 120, tags: ["b"] });
  expect((await stack.preview()).changeSummary).not.toHaveProperty("replace");
  expect((await stack.preview()).changeSummary).not.toHaveProperty("update");
}
