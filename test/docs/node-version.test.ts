import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { NODE_REQUIRED } from "../../api/node-version";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { docFiles } from "./blocks";

/** The minimum as the docs write it: `22.19`. */
const MINIMUM = NODE_REQUIRED.replace(/\.0$/, "");
/** A page's every statement of a minimum Node.js: "Node.js 22.19 or later", "Node >= 22", "Node.js v22+". */
const MINIMA =
  /\bNode(?:\.js)?\s*(?:>=\s*|v)?(\d+(?:\.\d+)*)(?:\+|\s+or\s+later)|\bNode(?:\.js)?\s*>=\s*(\d+(?:\.\d+)*)/g;
const pages = () => [...docFiles(REPO_ROOT), "provider/README.md", "server/README.md"];

describe("the Node.js the packages need", () => {
  it("every page that states a minimum states the one the packages check and declare", () => {
    const stated = pages().flatMap((file) =>
      [...readFileSync(join(REPO_ROOT, file), "utf8").matchAll(MINIMA)].map((m) => `${file}: ${m[1] ?? m[2]}`),
    );
    expect(stated.length).toBeGreaterThan(0);
    expect(stated.filter((s) => !s.endsWith(`: ${MINIMUM}`))).toEqual([]);
    for (const pkg of ["provider", "server"]) {
      expect(JSON.parse(readFileSync(join(REPO_ROOT, pkg, "package.json"), "utf8")).engines.node, pkg).toBe(
        `>=${MINIMUM}`,
      );
    }
  });

  it("both quickstarts, both package READMEs and the installation page state it", () => {
    const readme = readFileSync(join(REPO_ROOT, "README.md"), "utf8");
    const quickstarts = readme.split(/^## /m).filter((s) => s.startsWith("Quickstart"));
    expect(quickstarts).toHaveLength(2);
    for (const text of [
      ...quickstarts,
      ...["provider/README.md", "server/README.md", "docs/installation-configuration.md"].map((f) =>
        readFileSync(join(REPO_ROOT, f), "utf8"),
      ),
    ]) {
      expect(text.replace(/\s+/g, " ")).toContain(`Node.js ${MINIMUM} or later`);
    }
  });
});
