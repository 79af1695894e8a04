/**
 * What a resource of this package holds while it registers. A program constructs all its
 * resources before the engine answers the first, so each one's pending Outputs and promises are
 * held at once (at 10,000 monitors, the program's memory): this package adds no more to them than
 * its inputs need. Pulumi's runtime under mocks, with the engine's answer held back.
 */
import * as pulumi from "@pulumi/pulumi";
import { queryObjects } from "node:v8";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identityInput } from "../../provider/resources/identity-input";
import { stackInstance } from "../../provider/resources/stack-identity";

const INSTANCE = "0123456789abcdef";

describe("while resources register", () => {
  let answer: () => void = () => undefined;
  const answered = new Promise<void>((resolve) => (answer = resolve));
  beforeAll(() => {
    pulumi.runtime.setMocks(
      {
        newResource: async (args) => {
          // The engine answers once the test has counted what the pending registrations hold.
          await answered;
          return {
            id: `${args.name}-id`,
            state: args.type.endsWith(":StackIdentity") ? { ...args.inputs, instance: INSTANCE } : args.inputs,
          };
        },
        call: (args) => args.inputs,
      },
      "project",
      "stack",
      false,
    );
  });
  afterAll(() => answer());

  /** Promises still referenced after building `count` values (a full GC first). */
  function promisesHeld<T>(count: number, build: (i: number) => T): number {
    const before = queryObjects(Promise, { format: "count" });
    const kept = Array.from({ length: count }, (_, i) => build(i));
    const held = queryObjects(Promise, { format: "count" }) - before;
    expect(kept).toHaveLength(count);
    return held;
  }

  it("a resource's identity input holds no more promises than one apply of the stack instance", () => {
    stackInstance();
    const apply = promisesHeld(50, (i) => stackInstance().apply((instance) => ({ instance, i })));
    const identity = promisesHeld(50, (i) => identityInput("Monitor", `m${i}`, undefined));
    // At most one more per resource: room for a promise the test process makes meanwhile (an `all`
    // over the instance and a parent's URN held four times as many).
    expect(identity).toBeLessThanOrEqual(apply + 50);
  });

  it("the identity input carries the stack instance, and the parent's URN where there is one", async () => {
    const parent = new pulumi.ComponentResource("test:index:Group", "group");
    const plain = identityInput("Monitor", "api", undefined).__identity;
    const child = identityInput("Monitor", "db", { parent }).__identity;
    answer();
    const [a, b] = await Promise.all(
      [plain, child].map((v) => new Promise((resolve) => pulumi.output(v).apply(resolve))),
    );
    expect(a).toEqual({ project: "project", stack: "stack", kind: "Monitor", name: "api", instance: INSTANCE });
    expect(Object.keys(a as object)).toEqual(["project", "stack", "kind", "name", "instance"]);
    expect(b).toEqual({
      project: "project",
      stack: "stack",
      kind: "Monitor",
      name: "db",
      instance: INSTANCE,
      parentUrn: await new Promise((r) => parent.urn.apply(r)),
    });
  });
});
