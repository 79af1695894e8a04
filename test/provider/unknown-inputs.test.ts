/**
 * An input property a resource does not have (a typo through a spread, plain JavaScript, YAML,
 * Python) fails the check with the name meant, in the dynamic resources' check and the native
 * plugin's alike: it is never dropped silently.
 */
import { describe, expect, it } from "vitest";
import { PLUGIN_KINDS } from "../../plugin/kinds";
import { uptimeProvider } from "../../plugin/provider";
import * as runtime from "../../provider/runtime";

const provider = uptimeProvider(PLUGIN_KINDS, "0.0.0-test");
// Nothing listens there: the service's own checks are skipped, as for a service that does not answer.
const connection = { baseUrl: "http://127.0.0.1:9", apiKey: "uk_test" };

describe("input properties a resource does not have", () => {
  const cases = [
    [
      "Monitor",
      { name: "api", type: "http", url: "https://example.com", intervalSec: 60, expectedStatusCode: [204] },
      "expectedStatusCode",
      "expectedStatusCodes",
    ],
    [
      "Channel",
      { name: "ops", type: "email", config: { address: "ops@example.com" }, event: ["down"] },
      "event",
      "events",
    ],
    ["StatusPage", { slug: "public", titel: "Public" }, "titel", "title"],
  ] as const;

  it.each(cases)(
    "%s: fail the dynamic check and the native plugin's, with the name meant",
    async (kind, inputs, typo, meant) => {
      const dynamic = (await runtime.check(kind, {}, { ...inputs, connection })).failures ?? [];
      const native =
        (await provider.check!(`urn:pulumi:dev::p::uptime:index:${kind}::r`, {}, { ...inputs, connection })).failures ??
        [];
      for (const failures of [dynamic, native]) {
        expect(failures).toContainEqual({
          property: typo,
          reason: expect.stringMatching(
            new RegExp(`^${typo}: a [a-z ]+ has no such input; did you mean \`${meant}\`\\?$`),
          ),
        });
      }
    },
  );

  it("lists the inputs when no name is near", async () => {
    const failures =
      (
        await runtime.check(
          "Monitor",
          {},
          { name: "api", type: "http", url: "https://example.com", intervalSec: 60, zzzzzzzz: 1, connection },
        )
      ).failures ?? [];
    expect(failures).toContainEqual({
      property: "zzzzzzzz",
      reason: expect.stringMatching(
        /^zzzzzzzz: a monitor has no such input; its inputs are name, type, url, intervalSec, .*, adopt, connection$/,
      ),
    });
    expect(JSON.stringify(failures)).not.toContain("createdAt");
  });
});
