import { readFileSync } from "node:fs";
import { join } from "node:path";

/** The version of this package, for the generated project's dependency. */
function ownVersion(): string {
  for (const rel of ["../../package.json", "../../../package.json"]) {
    try {
      const pkg = JSON.parse(readFileSync(join(__dirname, rel), "utf8")) as { name?: string; version?: string };
      if (pkg.name === "pulumi-uptime" && pkg.version) return pkg.version;
    } catch {
      // not here
    }
  }
  return "0.1.0";
}

/** Pulumi.yaml of the generated project. */
export const pulumiYaml = (name: string) =>
  `name: ${name}\nruntime: nodejs\ndescription: Uptime monitors, channels and status pages imported from the live account.\n`;

/** package.json of the generated project. */
export const packageJson = (name: string) =>
  `${JSON.stringify(
    {
      name,
      private: true,
      main: "index.ts",
      dependencies: { "@pulumi/pulumi": "^3.259.0", "pulumi-uptime": `^${ownVersion()}` },
      devDependencies: { "@types/node": "^24.0.0", "ts-node": "^10.9.2", typescript: "^5.9.0" },
    },
    null,
    2,
  )}\n`;

/** tsconfig.json of the generated project: the one `pulumi new typescript` writes. */
export const tsconfigJson = `${JSON.stringify(
  {
    compilerOptions: {
      strict: true,
      outDir: "bin",
      target: "es2020",
      module: "commonjs",
      moduleResolution: "node",
      sourceMap: true,
      experimentalDecorators: true,
      pretty: true,
      noFallthroughCasesInSwitch: true,
      noImplicitReturns: true,
      forceConsistentCasingInFileNames: true,
    },
    files: ["index.ts"],
  },
  null,
  2,
)}\n`;
