import { Writable } from "node:stream";
import { request } from "undici";
import { describe, expect, it } from "vitest";
import { buildApp } from "../../server/index";
import { newKey } from "../support/server";

describe("server logs", () => {
  it("are structured JSON lines with the request id, and never contain an API key", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(...String(chunk).split("\n").filter(Boolean));
        done();
      },
    });
    const key = newKey();
    const app = await buildApp({ devKey: key, checker: false, logger: { level: "info", stream } as never });
    try {
      const base = await app.listen({ port: 0, host: "127.0.0.1" });
      await request(`${base}/api/v1/monitors`, { headers: { authorization: `Bearer ${key}` } }).then((r) =>
        r.body.text(),
      );
      await request(`${base}/api/v1/monitors`, { headers: { authorization: `Bearer ${newKey()}x` } }).then((r) =>
        r.body.text(),
      );
    } finally {
      await app.close();
    }
    const entries = lines.map((l) => JSON.parse(l) as { reqId?: string; msg: string });
    expect(entries.some((e) => e.reqId?.startsWith("req_"))).toBe(true);
    expect(lines.join("\n")).not.toContain(key);
    expect(lines.join("\n")).not.toContain("uk_");
  });
});
