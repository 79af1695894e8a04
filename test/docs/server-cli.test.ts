import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { OPTIONS } from "../../server/cli";

/** The options `uptime-server` parses (server/cli.ts's OPTIONS table). */
const options = Object.keys(OPTIONS);
/** Options the CLI still parses only to refuse them with a message (they are not documented as usable). */
const REFUSED = new Set(["dev-key"]);

const page = readFileSync(join(REPO_ROOT, "docs", "reference", "server-cli.md"), "utf8");
const documented = new Set([...page.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1] as string));

describe("docs/reference/server-cli.md", () => {
  it("documents every option uptime-server takes, and no option it does not take", () => {
    expect(options.length).toBeGreaterThan(20);
    expect(options.filter((o) => !REFUSED.has(o) && !documented.has(o))).toEqual([]);
    expect([...documented].filter((o) => !options.includes(o))).toEqual([]);
  });
});
