import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";

const SERVER = join(REPO_ROOT, "server");
const pkg = JSON.parse(readFileSync(join(SERVER, "package.json"), "utf8")) as {
  name: string;
  bin: Record<string, string>;
};
/** What `npm pack` puts in the server's tarball. */
const packed = (
  JSON.parse(
    execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], { cwd: SERVER, encoding: "utf8" }),
  ) as { files: { path: string }[] }[]
)[0]!.files.map((f) => f.path);

describe("the server package's deployment files", () => {
  it("are in the package: the server's and the agent's systemd units and environment files", () => {
    expect(packed).toEqual(
      expect.arrayContaining([
        "deploy/uptime-server.service",
        "deploy/uptime-server.env",
        "deploy/uptime-agent.service",
        "deploy/uptime-agent.env",
      ]),
    );
  });

  it("run the package's own command, read the environment file shipped beside them, and name the package to install", () => {
    for (const unit of ["uptime-server", "uptime-agent"]) {
      const text = readFileSync(join(SERVER, "deploy", `${unit}.service`), "utf8");
      const command = /^ExecStart=\/usr\/bin\/env (\S+) /m.exec(text)?.[1];
      expect(Object.keys(pkg.bin), unit).toContain(command);
      expect(text, unit).toMatch(new RegExp(`^EnvironmentFile=/etc/uptime/${unit}\\.env$`, "m"));
      expect(text, unit).toMatch(new RegExp(`npm install -g ${pkg.name}\\b`));
      expect(text, unit).not.toMatch(/npm install -g pulumi-uptime\s/);
    }
  });
});
