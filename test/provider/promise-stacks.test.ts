import { afterEach, describe, expect, it } from "vitest";
import { cheapPromiseStacks } from "../../provider/resources/promise-stacks";

// Named as the SDK's function is: its stacks are the ones formatted cheaply.
function debuggablePromise(): string | undefined {
  return new Error("promise stack").stack;
}
function sourcePosition(): string | undefined {
  return new Error("user stack").stack;
}

describe("stacks while a resource registers", () => {
  const original = Error.prepareStackTrace;
  afterEach(() => {
    Object.defineProperty(Error, "prepareStackTrace", { value: original, writable: true, configurable: true });
  });

  it("formats the SDK's promise stacks as one line, every other stack through the installed formatter, and restores it", () => {
    const mapped: string[] = [];
    // Stands in for ts-node's source-map formatter.
    const installed = (error: Error, frames: NodeJS.CallSite[]) => {
      mapped.push(error.message);
      return `mapped ${error.message} (${frames.length} frames)`;
    };
    Error.prepareStackTrace = installed;
    const restore = cheapPromiseStacks();
    const during = { promise: debuggablePromise(), user: sourcePosition() };
    restore();
    expect(during.promise).toBe("Error: promise stack");
    expect(during.user).toMatch(/^mapped user stack \(\d+ frames\)$/);
    expect(Error.prepareStackTrace).toBe(installed);
    expect(debuggablePromise()).toMatch(/^mapped promise stack/);
    expect(mapped).toEqual(["user stack", "promise stack"]);
  });

  it("captures stacks to Node's default depth while a resource registers, then restores the raised limit", () => {
    const limit = Error.stackTraceLimit;
    Error.prepareStackTrace = (error: Error, frames: NodeJS.CallSite[]) => `${error.message} (${frames.length} frames)`;
    // As TypeScript leaves it under ts-node.
    Error.stackTraceLimit = 100;
    const deep = (n: number): string | undefined => (n === 0 ? sourcePosition() : deep(n - 1));
    try {
      const restore = cheapPromiseStacks();
      const during = deep(30);
      restore();
      expect(during).toBe("user stack (10 frames)");
      expect(Error.stackTraceLimit).toBe(100);
      expect(deep(30)).toMatch(/^user stack \((3\d|[4-9]\d) frames\)$/);
    } finally {
      Error.stackTraceLimit = limit;
    }
  });

  it("changes nothing without an installed formatter (a JavaScript program)", () => {
    Object.defineProperty(Error, "prepareStackTrace", { value: undefined, writable: true, configurable: true });
    const restore = cheapPromiseStacks();
    expect(Error.prepareStackTrace).toBeUndefined();
    expect(debuggablePromise()).toMatch(/^Error: promise stack\n\s+at debuggablePromise/);
    restore();
    expect(Error.prepareStackTrace).toBeUndefined();
  });

  it("leaves a formatter installed read-only as it is, without failing", () => {
    const installed = (error: Error) => `mapped ${error.message}`;
    Object.defineProperty(Error, "prepareStackTrace", { value: installed, writable: false, configurable: true });
    const restore = cheapPromiseStacks();
    expect(debuggablePromise()).toBe("mapped promise stack");
    restore();
    expect(Error.prepareStackTrace).toBe(installed);
  });
});
