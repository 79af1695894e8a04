import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

type Helper = typeof import("../../scripts/ensure-chromium.mjs", { with: { "resolution-mode": "import" } });
let ensureChromium: Helper["ensureChromium"];
let findChromium: Helper["findChromium"];
let INSTALL_COMMAND: string;
beforeAll(async () => {
  ({ ensureChromium, findChromium, INSTALL_COMMAND } = await import("../../scripts/ensure-chromium.mjs"));
});

const dir = mkdtempSync(join(tmpdir(), "chromium-"));
const emptyPath = mkdtempSync(join(tmpdir(), "empty-path-"));

/** An executable that answers `--version` as Chromium does. */
function fakeBrowser(name: string): string {
  const file = join(dir, name);
  writeFileSync(file, "#!/bin/sh\necho 'Chromium 999.0.0.0'\n");
  chmodSync(file, 0o755);
  return file;
}

describe("ensure-chromium", () => {
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(emptyPath, { recursive: true, force: true });
  });

  it("without a browser and without root, fails with the exact apt-get command", () => {
    const run = () => ensureChromium({ env: { PATH: emptyPath }, systemPaths: [], uid: 1000, hasApt: true });
    expect(run).toThrow(INSTALL_COMMAND);
    expect(INSTALL_COMMAND).toBe("sudo apt-get update && sudo apt-get install -y chromium");
  });

  it("without apt-get, names CHROMIUM_PATH as the way out", () => {
    const run = () => ensureChromium({ env: { PATH: emptyPath }, systemPaths: [], uid: 1000, hasApt: false });
    expect(run).toThrow(/set CHROMIUM_PATH/);
  });

  it("finds chromium-browser on PATH", () => {
    fakeBrowser("chromium-browser");
    expect(findChromium({ env: { PATH: `${emptyPath}:${dir}` }, systemPaths: [] })).toEqual({
      path: join(dir, "chromium-browser"),
      version: "Chromium 999.0.0.0",
      source: "path",
    });
  });

  it("CHROMIUM_PATH wins, and one that does not start is an error naming it", () => {
    const file = fakeBrowser("my-chrome");
    expect(findChromium({ env: { CHROMIUM_PATH: file }, systemPaths: [] })?.source).toBe("env");
    expect(() => findChromium({ env: { CHROMIUM_PATH: join(dir, "missing") } })).toThrow(
      /^CHROMIUM_PATH=.*missing is not a working browser/,
    );
  });

  // Runs apt-get for real (a no-op install where the package is already there), as on a machine
  // where nothing is found: root and apt-get are what CI and the fresh-machine check have.
  it.runIf(process.getuid?.() === 0 && existsSync("/usr/bin/apt-get"))(
    "as root with apt-get and no browser found, installs Debian's chromium and finds it where the package puts it",
    () => {
      const found = ensureChromium({ env: { PATH: emptyPath }, systemPaths: [] });
      expect(found).toMatchObject({ path: "/usr/bin/chromium", source: "installed" });
      expect(found.version).toMatch(/Chromium \d+/);
    },
    240_000,
  );

  it("finds this machine's browser without installing anything", () => {
    const found = ensureChromium({ env: { ...process.env, CHROMIUM_PATH: "" } });
    expect(found.source).not.toBe("installed");
    expect(found.version).toMatch(/Chrom(e|ium) \d+/);
  });
});
