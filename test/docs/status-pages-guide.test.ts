import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { coreStatusPageId, httpMonitorId, startServer, type TestServer } from "../support/server";
import { blocksOf, type DocBlock } from "./blocks";

const GUIDE = "docs/guides/status-pages.md";

describe("the status pages guide", () => {
  let blocks: DocBlock[];
  let s: TestServer;

  beforeAll(async () => {
    blocks = await blocksOf(GUIDE, readFileSync(join(REPO_ROOT, GUIDE), "utf8"));
    s = await startServer();
  });
  afterAll(async () => await s?.close());

  it("shows the whole program that test/engine/status-page.int.test.ts deploys", () => {
    const program = readFileSync(join(REPO_ROOT, "test/engine/programs/status-page/index.ts"), "utf8");
    expect(blocks.filter((b) => b.lang === "ts").map((b) => b.code.trim())).toEqual([program.trim()]);
  });

  it("has request bodies the server accepts, in order, on a page like the program's", async () => {
    const mon = await httpMonitorId(s, "api", "https://example.com/");
    const page = await coreStatusPageId(s, { slug: "guide", title: "Guide" }, mon, {
      apiName: "Public API",
      manualKey: "support",
    });
    const requests = blocks.filter((b) => b.marker?.startsWith("body: "));
    expect(requests).toHaveLength(3);
    let incident = "";
    for (const b of requests) {
      const [method, template] = (b.marker as string).slice("body: ".length).split(" ") as [string, string];
      const path = template.replace("{page}", page).replace("{incident}", incident);
      const res = await s.call(method, path, JSON.parse(b.code));
      expect(res.status, `${GUIDE}:${b.line}: ${res.status} ${JSON.stringify(res.body)}`).toBeLessThan(300);
      if (path.endsWith("/incidents")) incident = res.body.data.id as string;
    }
    const open = (await s.call("GET", `/api/v1/status-pages/${page}/incidents?state=open`)).body.data;
    expect(open.map((i: { title: string; state: string }) => [i.title, i.state])).toEqual([
      ["Elevated API errors", "identified"],
    ]);
  });
});
