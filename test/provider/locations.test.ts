import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clientFor } from "../../provider/client/client";
import * as runtime from "../../provider/runtime";
import { startServer, type TestServer } from "../support/server";

type Props = Record<string, unknown>;

describe("Monitor: locations and failureThreshold", () => {
  let s: TestServer;
  let connection: { baseUrl: string; apiKey: string };

  beforeAll(async () => {
    s = await startServer({});
    await s.app.store.keys.create("dev", "eu agent", undefined, "eu");
    connection = { baseUrl: s.url, apiKey: s.key };
    clientFor(connection);
  });
  afterAll(async () => s?.close());

  const roundTrip = async (generated: Props) => {
    const inputs = {
      name: "api",
      type: "http",
      url: "https://example.com/",
      intervalSec: 60,
      ...generated,
      connection,
    };
    const checked = await runtime.check("Monitor", {}, inputs);
    expect(checked.failures).toEqual([]);
    const created = await runtime.create("Monitor", checked.inputs as Props);
    return { inputs, created };
  };

  it("locations are a set: written in any order with repeats, stored sorted, no diff after create or refresh", async () => {
    const { inputs, created } = await roundTrip({ locations: ["local", "eu", "local"], failureThreshold: 2 });
    try {
      // The built-in checker is off in this server and no agent of eu runs: both unchecked.
      expect(created.outs).toMatchObject({
        locations: ["eu", "local"],
        failureThreshold: 2,
        uncheckedLocations: ["eu", "local"],
      });
      expect(
        (await runtime.diff("Monitor", created.id, created.outs as Props, { ...inputs, locations: ["eu", "local"] }))
          .changes,
      ).toBe(false);
      const read = await runtime.read("Monitor", created.id, created.outs as Props);
      expect((await runtime.diff("Monitor", created.id, read.props as Props, inputs)).changes).toBe(false);
      const moved = await runtime.diff("Monitor", created.id, created.outs as Props, {
        ...inputs,
        locations: ["eu"],
        failureThreshold: 1,
      });
      expect(moved.changes).toBe(true);
    } finally {
      await runtime.remove("Monitor", created.id, created.outs as Props);
    }
  });

  it("no locations: the built-in checker, and no diff", async () => {
    const { inputs, created } = await roundTrip({});
    try {
      // Unset (null) properties are left out of the state; programs read them as null.
      expect(created.outs).toMatchObject({ failureThreshold: 1, uncheckedLocations: ["local"] });
      expect(created.outs).not.toHaveProperty("locations");
      const read = await runtime.read("Monitor", created.id, created.outs as Props);
      expect((await runtime.diff("Monitor", created.id, read.props as Props, inputs)).changes).toBe(false);
    } finally {
      await runtime.remove("Monitor", created.id, created.outs as Props);
    }
  });

  it("a location name against the rule is a check failure naming the property; an unknown one fails the check and the create naming it", async () => {
    const bad = await runtime.check(
      "Monitor",
      {},
      { name: "api", type: "http", url: "https://example.com/", intervalSec: 60, locations: ["EU West"], connection },
    );
    expect(bad.failures).toEqual([expect.objectContaining({ property: "locations[0]" })]);
    const inputs = {
      name: "api",
      type: "http",
      url: "https://example.com/",
      intervalSec: 60,
      locations: ["mars"],
      connection,
    };
    const unknown = await runtime.check("Monitor", {}, inputs);
    expect(unknown.failures).toEqual([
      {
        property: "locations",
        reason: expect.stringContaining("locations[0]: mars is not one of the account's locations (eu, local)"),
      },
    ]);
    await expect(runtime.create("Monitor", inputs)).rejects.toThrow(
      /locations\[0\]: mars is not one of the account's locations/,
    );
  });

  it("retries at other locations: refused with one location at check time, naming retry.location; no diff once created with two", async () => {
    const retry = { strategy: "fixed", delay: 500, location: "other" };
    const one = await runtime.check(
      "Monitor",
      {},
      { name: "api", type: "http", url: "https://example.com/", intervalSec: 60, retry, connection },
    );
    expect(one.failures).toEqual([
      {
        property: "retry.location",
        reason: expect.stringContaining('"other" needs 2 or more locations (the monitor has 1)'),
      },
    ]);
    const { inputs, created } = await roundTrip({ locations: ["local", "eu"], retry });
    try {
      expect(created.outs).toMatchObject({
        retry: { strategy: "fixed", delay: 500, retries: 2, duration: 60, trigger: "failure", location: "other" },
      });
      const read = await runtime.read("Monitor", created.id, created.outs as Props);
      expect((await runtime.diff("Monitor", created.id, read.props as Props, inputs)).changes).toBe(false);
      expect(
        (
          await runtime.diff("Monitor", created.id, created.outs as Props, {
            ...inputs,
            retry: { ...retry, location: "same" },
          })
        ).changes,
      ).toBe(true);
    } finally {
      await runtime.remove("Monitor", created.id, created.outs as Props);
    }
  });
});
