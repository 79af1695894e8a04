import * as pulumi from "@pulumi/pulumi";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { Monitor } from "../../provider";
import { cheapPromiseStacks } from "../../provider/resources/promise-stacks";

const FRAME = /\n\s+at /;

describe("stacks while a resource registers", () => {
  const limit = Error.stackTraceLimit;
  afterEach(() => {
    Object.defineProperty(Error, "stackTraceLimit", {
      value: limit,
      writable: true,
      configurable: true,
      enumerable: true,
    });
  });
  beforeAll(() => {
    pulumi.runtime.setMocks(
      { newResource: async (args) => ({ id: `${args.name}-id`, state: args.inputs }), call: (args) => args.inputs },
      "project",
      "stack",
      false,
    );
  });

  it("captures no frame for the SDK's promise stacks, then gives the program its own limit back", () => {
    // As TypeScript leaves it under ts-node.
    Error.stackTraceLimit = 100;
    const restore = cheapPromiseStacks();
    const during = new Error("promise stack").stack;
    restore();
    expect(during).toBe("Error: promise stack");
    expect(Error.stackTraceLimit).toBe(100);
    expect(new Error("after").stack).toMatch(FRAME);
  });

  it("leaves the source position the SDK records for the resource as it was: its own limit", () => {
    // What the SDK's Resource constructor records as the resource's stack trace and source position,
    // asked from a named function, as a program's frame (the SDK reads frames with a function name).
    function program() {
      return (pulumi.Resource as unknown as { callsites(): { file?: string }[] }).callsites();
    }
    const restore = cheapPromiseStacks();
    const callsites = program();
    restore();
    expect(callsites.some((frame) => frame.file?.endsWith("promise-stacks.test.ts"))).toBe(true);
  });

  it("an error the SDK's constructor throws carries the stack from the program's call", () => {
    let thrown: unknown;
    try {
      new Monitor(
        "api",
        { type: "http", url: "https://api.example.com/health", intervalSec: 60 },
        { parent: "not a resource" as unknown as pulumi.Resource },
      );
    } catch (err) {
      thrown = err;
    }
    expect(String(thrown)).toMatch(/Resource parent is not a valid Resource/);
    const stack = (thrown as Error).stack ?? "";
    // The first frame is the program's line that called `new Monitor`, not this package's constructors.
    expect(stack.split("\n")[1]).toMatch(/promise-stacks\.test\.ts/);
    expect(stack).not.toMatch(/DynamicResource|new Monitor/);
    expect(Error.stackTraceLimit).toBe(limit);
  });

  it("a monitor registers with the program's limit given back", () => {
    Error.stackTraceLimit = 100;
    new Monitor("db", { type: "http", url: "https://db.example.com/health", intervalSec: 60 });
    expect(Error.stackTraceLimit).toBe(100);
  });

  it("leaves a limit made read-only as it is, without failing", () => {
    Object.defineProperty(Error, "stackTraceLimit", { value: 50, writable: false, configurable: true });
    const restore = cheapPromiseStacks();
    expect(Error.stackTraceLimit).toBe(50);
    restore();
    expect(Error.stackTraceLimit).toBe(50);
  });
});
