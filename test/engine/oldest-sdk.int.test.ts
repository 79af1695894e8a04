import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { npmInstall, packPackage, programDevDependencies } from "../../scripts/packed";
import { prepareProgram, REPO_ROOT } from "../../scripts/pulumi-engine";
import { useServer, useStack } from "../support/engine-suite";

/** The oldest `@pulumi/pulumi` the provider supports: the floor of its peer dependency. */
export const OLDEST_SDK = (
  JSON.parse(readFileSync(join(REPO_ROOT, "provider/package.json"), "utf8")).peerDependencies[
    "@pulumi/pulumi"
  ] as string
).replace(/^\^/, "");

/** Every installed copy of @pulumi/pulumi under `modules`, nested ones included. */
const sdkCopies = (modules: string) =>
  readdirSync(modules, { recursive: true, encoding: "utf8" }).filter((f) =>
    f.endsWith(join("@pulumi", "pulumi", "package.json")),
  );

describe(`a program on the oldest supported @pulumi/pulumi (${OLDEST_SDK})`, () => {
  const s = useServer();
  const { stack, program } = useStack({
    // A fresh project as `pulumi new typescript` makes it, then `npm install <packed pulumi-uptime>`.
    program: () => {
      const workDir = prepareProgram(join(__dirname, "programs", "oldest-sdk"), {});
      const tgz = packPackage("provider", workDir);
      writeFileSync(
        join(workDir, "package.json"),
        JSON.stringify({
          name: "oldest-sdk",
          main: "index.ts",
          dependencies: { "@pulumi/pulumi": OLDEST_SDK },
          devDependencies: programDevDependencies(),
        }),
      );
      npmInstall(workDir);
      npmInstall(workDir, [tgz]);
      return workDir;
    },
    // Type-checked as it runs: the program compiles against the oldest SDK's own types.
    engine: { typeCheck: true },
    server: s,
  });

  it("installs one SDK copy, deploys a monitor through it and destroys it", async () => {
    expect(sdkCopies(join(program.workDir, "node_modules"))).toEqual([join("@pulumi", "pulumi", "package.json")]);

    const up = await stack.up();
    // The stack, its identity resource and the monitor.
    expect(up.summary.resourceChanges).toEqual({ create: 3 });
    expect(up.outputs.sdkVersion?.value).toBe(OLDEST_SDK);
    expect(up.outputs.isCustomResource?.value).toBe(true);
    const monitorId = up.outputs.monitorId?.value as string;
    expect((await s.call("GET", `/api/v1/monitors/${monitorId}`)).body.data.url).toBe("https://api.example.com/health");

    expect((await stack.destroy()).summary.resourceChanges).toEqual({ delete: 3 });
    expect((await s.call("GET", `/api/v1/monitors/${monitorId}`)).status).toBe(404);
  });
});
