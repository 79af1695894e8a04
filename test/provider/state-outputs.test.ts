/**
 * A resource registers only the inputs its program gave; every other output its type declares is
 * read from the resource's state on first use. Pulumi's runtime under mocks: the mock's state
 * stands for what the engine recorded (a default the service filled in, an output-only field).
 */
import * as pulumi from "@pulumi/pulumi";
import { queryObjects } from "node:v8";
import { beforeAll, describe, expect, it } from "vitest";
import { Channel, Monitor } from "../../provider";
import { outputNames } from "../../provider/kinds/fields";
import { MONITOR_FIELDS } from "../../api";

/** What the service adds to a monitor's inputs: defaults and output-only fields. */
const SERVED = {
  method: "GET",
  timeoutSec: 30,
  status: "active",
  createdAt: "2026-11-24T00:00:00Z",
  pushUrl: "https://push.example.com/abc",
};

function settle<T>(out: pulumi.Output<T>): Promise<{ value: T | undefined; known: boolean; secret: boolean }> {
  const o = out as unknown as { promise(): Promise<T>; isKnown: Promise<boolean>; isSecret: Promise<boolean> };
  return Promise.all([o.promise(), o.isKnown, o.isSecret]).then(([value, known, secret]) => ({ value, known, secret }));
}

function mocks(dryRun: boolean) {
  pulumi.runtime.setMocks(
    {
      newResource: async (args) => ({
        id: dryRun ? undefined : `${args.name}-id`,
        // At preview the engine knows only the inputs; after an update, what the service stored.
        state: dryRun || !args.type.endsWith(":Monitor") ? args.inputs : { ...args.inputs, ...SERVED },
      }),
      call: (args) => args.inputs,
    },
    "project",
    "stack",
    dryRun,
  );
}

describe("outputs after an update", () => {
  beforeAll(() => mocks(false));

  it("registers only the inputs the program gave; a default and an output-only field read from state", async () => {
    const monitor = new Monitor("api", { type: "http", url: "https://api.example.com/health", intervalSec: 60 });
    const own = Object.keys(monitor).filter((k) =>
      pulumi.Output.isInstance((monitor as unknown as Record<string, unknown>)[k]),
    );
    expect(own).toEqual(expect.arrayContaining(["url", "intervalSec", "type", "name"]));
    expect(own).not.toContain("method");
    expect(own).not.toContain("status");
    expect(await settle(monitor.url)).toEqual({ value: "https://api.example.com/health", known: true, secret: false });
    expect(await settle(monitor.method)).toEqual({ value: "GET", known: true, secret: false });
    expect(await settle(monitor.status)).toEqual({ value: "active", known: true, secret: false });
    // Absent from state after an update: `null` for a property of the monitor's type (none set),
    // `undefined` for one of other types only.
    expect(await settle(monitor.body)).toEqual({ value: null, known: true, secret: true });
    expect(await settle(monitor.sslExpiryDays)).toEqual({ value: null, known: true, secret: false });
    expect(await settle(monitor.keyword)).toEqual({ value: undefined, known: true, secret: false });
    expect(await settle(monitor.graceSec)).toEqual({ value: undefined, known: true, secret: false });
    // One Output per property, every time it is read.
    expect(monitor.method).toBe(monitor.method);
  });

  it("every declared output is an Output on the object, with the resource as its dependency", async () => {
    const monitor = new Monitor("db", { type: "http", url: "https://db.example.com/health", intervalSec: 60 });
    for (const name of outputNames(MONITOR_FIELDS)) {
      const out = (monitor as unknown as Record<string, pulumi.Output<unknown>>)[name];
      expect(pulumi.Output.isInstance(out), name).toBe(true);
    }
    const deps = await (
      monitor.createdAt as unknown as { allResources(): Promise<Set<pulumi.Resource>> }
    ).allResources();
    expect([...deps]).toContain(monitor);
  });

  it("an output read from state is secret where the resource's secret outputs name it", async () => {
    const monitor = new Monitor(
      "beat",
      { type: "http", url: "https://beat.example.com/", intervalSec: 60 },
      { additionalSecretOutputs: ["method"] },
    );
    expect(await settle(monitor.pushUrl)).toEqual({ value: SERVED.pushUrl, known: true, secret: true });
    expect(await settle(monitor.method)).toEqual({ value: "GET", known: true, secret: true });
    expect(await settle(monitor.createdAt)).toMatchObject({ secret: false });
  });

  it("a resource holds a third of the promises it held registering every declared output", () => {
    const count = 40;
    const held = (build: (i: number) => unknown) => {
      const before = queryObjects(Promise, { format: "count" });
      const kept = Array.from({ length: count }, (_, i) => build(i));
      const n = queryObjects(Promise, { format: "count" }) - before;
      expect(kept).toHaveLength(count);
      return n;
    };
    const args = (i: number) => ({ type: "http" as const, url: `https://m${i}.example.com/`, intervalSec: 60 });
    const lean = held((i) => new Monitor(`lean-${i}`, args(i)));
    // The same inputs with every declared output given as `undefined`: the SDK registers each.
    const placeholders = Object.fromEntries(outputNames(MONITOR_FIELDS).map((k) => [k, undefined]));
    const full = held((i) => new Monitor(`full-${i}`, { ...placeholders, ...args(i) } as never));
    expect(lean * 3).toBeLessThan(full);
  });
});

describe("outputs at preview", () => {
  beforeAll(() => mocks(true));

  it("an output the state does not have yet is unknown; one it has is known", async () => {
    const channel = new Channel("ops", { type: "webhook", config: { url: "https://hooks.example.com/ops" } });
    expect(await settle(channel.type)).toMatchObject({ value: "webhook", known: true });
    expect(await settle(channel.createdAt)).toMatchObject({ known: false });
  });
});
