import { execFileSync } from "node:child_process";
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";

type Helper = typeof import("../../scripts/ensure-ping.mjs", { with: { "resolution-mode": "import" } });
let ensurePing: Helper["ensurePing"];
let findPing: Helper["findPing"];
let INSTALL_COMMAND: string;
beforeAll(async () => {
  ({ ensurePing, findPing, INSTALL_COMMAND } = await import("../../scripts/ensure-ping.mjs"));
});

const dir = mkdtempSync(join(tmpdir(), "ping-"));
const emptyPath = mkdtempSync(join(tmpdir(), "empty-path-"));

describe("ensure-ping", () => {
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(emptyPath, { recursive: true, force: true });
  });

  it("without ping and without root, fails with the exact apt-get command", () => {
    expect(() => ensurePing({ env: { PATH: emptyPath }, uid: 1000, hasApt: true })).toThrow(INSTALL_COMMAND);
    expect(INSTALL_COMMAND).toBe("sudo apt-get update && sudo apt-get install -y iputils-ping");
  });

  it("a ping that may not send is named, with the capability and the sysctl that let it", () => {
    const file = join(dir, "ping");
    writeFileSync(file, "#!/bin/sh\necho 'ping: socktype: SOCK_RAW: Operation not permitted' >&2\nexit 2\n");
    chmodSync(file, 0o755);
    expect(() => findPing({ env: { PATH: dir } })).toThrow(
      /cannot send echo requests \(ping: socktype: SOCK_RAW: Operation not permitted\)[\s\S]*setcap cap_net_raw\+ep[\s\S]*ping_group_range/,
    );
  });

  it("the host's ping answers 127.0.0.1 (the set-up installed it), and `npm run ping:ensure` prints its path", () => {
    expect(findPing()).toMatchObject({ source: "path", path: expect.stringMatching(/\/ping$/) });
    const out = execFileSync("npm", ["run", "--silent", "ping:ensure"], {
      cwd: REPO_ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    expect(out.trim().split("\n").at(-1)).toBe(findPing()?.path);
  });
});
