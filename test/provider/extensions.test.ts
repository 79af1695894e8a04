import { describe, expect, it } from "vitest";
import { UptimeClient } from "../../provider/client/client";
import { hasExtensions } from "../../provider/client/extensions";
import { startFaultProxy } from "../support/fault-proxy";
import { startServer } from "../support/server";
import { useFaultProxy, useServer } from "../support/use-server";

const isDocument = (m: string, p: string) => m === "GET" && p === "/api/v1/openapi.json";

describe("hasExtensions", () => {
  const s = useServer();
  const proxy = useFaultProxy(s);
  const client = (over = {}) =>
    new UptimeClient({ baseUrl: proxy.url, apiKey: s.key }, { baseDelayMs: 5, maxDelayMs: 20, ...over });

  it("retries a failed look-up through the client instead of concluding there are none", async () => {
    proxy.faults.push({ match: isDocument, status: 503, times: 2 });
    await expect(hasExtensions(client())).resolves.toBe(true);
    expect(proxy.seen.filter((l) => l.startsWith("GET /api/v1/openapi.json"))).toEqual([
      "GET /api/v1/openapi.json 503",
      "GET /api/v1/openapi.json 503",
      "GET /api/v1/openapi.json 200",
    ]);
  });

  it("does not keep a failure: the next call asks again and gets the answer", async () => {
    const other = await startServer();
    const flaky = await startFaultProxy(other.url);
    try {
      const c = new UptimeClient(
        { baseUrl: flaky.url, apiKey: other.key },
        { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 20 },
      );
      flaky.faults.push({ match: isDocument, status: 502, times: 2 });
      await expect(hasExtensions(c)).rejects.toMatchObject({ status: 502 });
      await expect(hasExtensions(c)).resolves.toBe(true);
      // Once known, the answer is kept: no further request.
      await expect(hasExtensions(c)).resolves.toBe(true);
      expect(flaky.seen).toEqual([
        "GET /api/v1/openapi.json 502",
        "GET /api/v1/openapi.json 502",
        "GET /api/v1/openapi.json 200",
      ]);
    } finally {
      await flaky.close();
      await other.close();
    }
  });

  it("a server without the document has no extensions", async () => {
    const seedOnly = await startServer({ extensions: false });
    try {
      await expect(hasExtensions(new UptimeClient({ baseUrl: seedOnly.url, apiKey: seedOnly.key }))).resolves.toBe(
        false,
      );
    } finally {
      await seedOnly.close();
    }
  });
});
