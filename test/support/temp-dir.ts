import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach } from "vitest";

/**
 * A folder of its own for each test of the block (made before it, removed after it, named from
 * `prefix`); answers a function that gives the path of `name` in the current test's folder.
 */
export function useTempDir(prefix: string): (name: string) => string {
  let dir: string | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return (name) => {
    if (!dir) throw new Error(`the folder of useTempDir("${prefix}") is made before each test: use it in one`);
    return join(dir, name);
  };
}
