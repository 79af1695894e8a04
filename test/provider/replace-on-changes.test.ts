import { describe, expect, it } from "vitest";
import * as runtime from "../../provider/runtime";
import { REPLACE_ON_CHANGES_INPUT, topProperty } from "../../provider/runtime/replace-on-changes";

type Props = Record<string, unknown>;

describe("replaceOnChanges on a dynamic resource, carried as an internal input", () => {
  // No request is made: a monitor's diff needs no server.
  const connection = { baseUrl: "http://127.0.0.1:9", apiKey: "uk_test" };
  // The outputs record the connection a resource declares (see connection-change.ts).
  const olds: Props = {
    name: "api",
    type: "http",
    url: "https://a.example.com/",
    intervalSec: 60,
    tags: ["a"],
    endpoint: connection.baseUrl,
    connection,
  };
  const news = (over: Props): Props => ({
    name: "api",
    type: "http",
    url: "https://a.example.com/",
    intervalSec: 60,
    tags: ["a"],
    connection,
    ...over,
  });

  it("replaces when a named property changes, and updates in place otherwise", async () => {
    const option = { [REPLACE_ON_CHANGES_INPUT]: ["intervalSec"] };
    expect(await runtime.diff("Monitor", "mon_1", olds, news({ ...option, intervalSec: 120 }))).toMatchObject({
      changes: true,
      replaces: ["intervalSec"],
    });
    expect(await runtime.diff("Monitor", "mon_1", olds, news({ ...option, tags: ["b"] }))).toMatchObject({
      changes: true,
      replaces: [],
    });
    expect(await runtime.diff("Monitor", "mon_1", olds, news({ intervalSec: 120 }))).toMatchObject({
      changes: true,
      replaces: [],
    });
  });

  it("a path names its top-level property, and `*` every property; the option alone is no change", async () => {
    expect(
      (await runtime.diff("Monitor", "mon_1", olds, news({ [REPLACE_ON_CHANGES_INPUT]: ["tags[0]"], tags: ["b"] })))
        .replaces,
    ).toEqual(["tags"]);
    expect(
      (await runtime.diff("Monitor", "mon_1", olds, news({ [REPLACE_ON_CHANGES_INPUT]: ["*"], tags: ["b"] }))).replaces,
    ).toEqual(["tags"]);
    expect(await runtime.diff("Monitor", "mon_1", olds, news({ [REPLACE_ON_CHANGES_INPUT]: ["*"] }))).toMatchObject({
      changes: false,
    });
    expect(["headers.x-token", "tags[0]", '["x.y"].z', "*"].map(topProperty)).toEqual(["headers", "tags", "x.y", "*"]);
  });
});
