import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BODY_LIMIT_BYTES, STEP_BODY_LIMIT_BYTES } from "../../../api";
import { startServer, type TestServer } from "../../support/server";

/**
 * A check reads a response body up to its documented limit and not one byte further, however the
 * body arrives: the chunk that crosses the limit is cut at it, not kept whole.
 */
describe("response bodies are read up to the documented limit exactly", () => {
  let s: TestServer;
  let site: Server;
  let base: string;
  const MARKER = "MARKER-token=found";

  beforeAll(async () => {
    s = await startServer({ minIntervalSec: 1 });
    // `/at/<offset>/<first>`: `first` bytes of padding in one write, then (after a pause, so they
    // reach the checker as another chunk) padding up to `offset`, the marker, and a tail.
    site = createServer((req, res) => {
      const [, , offset, first] = (req.url ?? "").split("/").map(Number);
      res.writeHead(200, { "content-type": "text/plain" });
      res.write("a".repeat(first as number));
      setTimeout(
        () => res.end(`${"b".repeat((offset as number) - (first as number))}${MARKER}${"c".repeat(1024)}`),
        100,
      );
    });
    await new Promise<void>((resolve) => site.listen(0, "127.0.0.1", resolve));
    base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await s?.close();
    await new Promise((resolve) => site?.close(resolve));
  });

  const dryRun = (body: unknown) => s.call("POST", "/api/v1/monitors/test", body);

  it("a multi-step step does not extract a value 70 KiB into its response (the limit is 64 KiB)", async () => {
    expect(STEP_BODY_LIMIT_BYTES).toBe(65_536);
    const steps = (offset: number) => [
      {
        name: "read",
        url: `${base}/at/${offset}/61440`,
        extract: [{ name: "token", source: "text_body", property: "token=(\\w+)" }],
      },
      { name: "use", url: `${base}/at/10/5?t={{token}}` },
    ];
    const beyond = await dryRun({
      name: "limit",
      type: "multistep",
      interval_sec: 60,
      timeout_sec: 5,
      steps: steps(70 * 1024),
    });
    expect(beyond.status, JSON.stringify(beyond.body)).toBe(200);
    expect(beyond.body.data, JSON.stringify(beyond.body.data)).toMatchObject({ status: "down" });
    expect(beyond.body.data.error).toMatch(/token/);
    // Just inside the limit, it is read.
    const inside = await dryRun({
      name: "limit",
      type: "multistep",
      interval_sec: 60,
      timeout_sec: 5,
      steps: steps(STEP_BODY_LIMIT_BYTES - MARKER.length),
    });
    expect(inside.body.data, JSON.stringify(inside.body.data)).toMatchObject({ status: "up" });
  });

  it("an http check's assertions do not see past 1 MiB of body", async () => {
    expect(BODY_LIMIT_BYTES).toBe(1_048_576);
    const check = (offset: number) =>
      dryRun({
        name: "limit",
        type: "http",
        interval_sec: 60,
        timeout_sec: 5,
        url: `${base}/at/${offset}/${BODY_LIMIT_BYTES - 4096}`,
        assertions: [{ source: "text_body", comparison: "contains", target: MARKER }],
      });
    const beyond = await check(BODY_LIMIT_BYTES + 4096);
    expect(beyond.body.data, JSON.stringify(beyond.body.data).slice(0, 2000)).toMatchObject({
      status: "down",
      error_class: "assertion",
    });
    const inside = await check(BODY_LIMIT_BYTES - MARKER.length);
    expect(inside.body.data, JSON.stringify(inside.body.data).slice(0, 2000)).toMatchObject({ status: "up" });
  });
});
