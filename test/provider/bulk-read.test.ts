import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { clientFor } from "../../provider/client/client";
import * as runtime from "../../provider/runtime";
import { type FaultProxy, startFaultProxy } from "../support/fault-proxy";
import { startServer, type TestServer } from "../support/server";

const monitor = (i: number) => ({
  name: `bulk-${i}`,
  type: "http",
  url: `https://site-${i}.example.com`,
  interval_sec: 60,
});

describe("bulk reads", () => {
  let s: TestServer;
  let proxy: FaultProxy;
  let ids: string[];
  beforeAll(async () => {
    s = await startServer();
    proxy = await startFaultProxy(s.url);
    // The client's retries on short steps: a list that fails for good exhausts them in well under a
    // second, not the minute the default steps take.
    clientFor({ baseUrl: proxy.url, apiKey: s.key }, { baseDelayMs: 5, maxDelayMs: 40 });
    ids = [];
    for (let i = 0; i < 450; i++) ids.push((await s.call("POST", "/api/v1/monitors", monitor(i))).body.data.id);
  });
  afterAll(async () => {
    await proxy.close();
    await s.close();
  });
  const props = () => ({ connection: { baseUrl: proxy.url, apiKey: s.key } });
  const requests = () => proxy.seen.splice(0);

  it("answers N concurrent reads with one list of pages of 200", async () => {
    requests();
    const reads = await Promise.all(ids.map((id) => runtime.read("Monitor", id, props())));
    expect(reads.map((r) => r.id)).toEqual(ids);
    expect(reads[7]?.props).toMatchObject({ name: "bulk-7", url: "https://site-7.example.com" });
    // ceil(450 / 200) pages, nothing per resource.
    expect(requests()).toEqual(Array(3).fill("GET /api/v1/monitors 200"));
  });

  it("confirms an id missing from the list with one GET by id", async () => {
    const gone = ids[3] as string;
    await s.call("DELETE", `/api/v1/monitors/${gone}`);
    // A write through the client ends the list, so the next read lists again.
    await clientFor(props().connection).request("POST", "/api/v1/monitors", {
      body: monitor(999),
      idempotencyKey: "bulk-999",
    });
    requests();
    const [missing, present] = await Promise.all([
      runtime.read("Monitor", gone, props()),
      runtime.read("Monitor", ids[4] as string, props()),
    ]);
    expect(missing).toEqual({});
    expect(present.id).toBe(ids[4]);
    expect(requests()).toEqual([...Array(3).fill("GET /api/v1/monitors 200"), `GET /api/v1/monitors/${gone} 404`]);
  });

  it("a write through the client invalidates the list: the next read sees the change", async () => {
    const id = ids[5] as string;
    await runtime.read("Monitor", id, props());
    await clientFor(props().connection).request("PATCH", `/api/v1/monitors/${id}`, { body: { name: "renamed" } });
    requests();
    const after = await runtime.read("Monitor", id, props());
    expect(after.props).toMatchObject({ name: "renamed" });
    expect(requests()).toEqual(Array(3).fill("GET /api/v1/monitors 200"));
  });

  it("a list lasts the operation: reads ten minutes later, without a write between, send nothing", async () => {
    await runtime.read("Monitor", ids[8] as string, props());
    requests();
    // A refresh of thousands of resources outlasts any fixed lifetime of the list.
    vi.useFakeTimers({ toFake: ["Date"], now: Date.now() + 10 * 60_000 });
    try {
      const later = await runtime.read("Monitor", ids[9] as string, props());
      expect(later.id).toBe(ids[9]);
      expect(requests()).toEqual([]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("a failed list is not kept: the reads fall back to GET by id, the next read lists again", async () => {
    // 11 = the first attempt and the client's 10 retries: the list fails for good.
    proxy.faults.push({ match: (m, p) => m === "GET" && p.startsWith("/api/v1/monitors?"), status: 500, times: 11 });
    await clientFor(props().connection).request("PATCH", `/api/v1/monitors/${ids[6]}`, { body: { name: "again" } });
    requests();
    const read = await runtime.read("Monitor", ids[6] as string, props());
    expect(read.props).toMatchObject({ name: "again" });
    expect(requests().filter((l) => l.startsWith(`GET /api/v1/monitors/${ids[6]}`))).toEqual([
      `GET /api/v1/monitors/${ids[6]} 200`,
    ]);
    await runtime.read("Monitor", ids[6] as string, props());
    expect(requests()).toEqual(Array(3).fill("GET /api/v1/monitors 200"));
  });
});
