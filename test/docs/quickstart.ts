/**
 * The README's quickstarts as one shell script: the server's commands (`<!-- test:
 * quickstart-server -->`), then the Pulumi program's (`<!-- test: quickstart-pulumi -->`, with
 * the `<!-- file: … -->` blocks written where they stand), each block exactly as documented but
 * for the substitutions below, which a test needs and a reader does not.
 */
import type { DocBlock } from "./blocks";
import { tsconfigJson } from "../../provider/import/files";

/** A documented text and what the test runs instead; each must occur in the quickstarts. */
export interface Substitution {
  from: string | RegExp;
  to: string;
  why: string;
}

/** The substitutions for a run with these tarballs and this port. */
export function substitutions(tarballs: { provider: string; server: string }, port: number): Substitution[] {
  return [
    {
      from: /^npm install -g pulumi-uptime-server$/m,
      to: `npm install -g ${tarballs.server}`,
      why: "the package as packed now, not as published",
    },
    {
      from: /^npm install pulumi-uptime$/m,
      to: `npm install ${tarballs.provider}`,
      why: "the package as packed now, not as published",
    },
    {
      from: /^pulumi new typescript --yes$/m,
      to: "pulumi new typescript --yes --offline",
      why: "no network: the template comes from PULUMI_HOME/templates",
    },
    { from: /\b8080\b/g, to: String(port), why: "a port of the test's own" },
  ];
}

/**
 * The script of the quickstarts: strict mode, background jobs ended on exit, each command echoed
 * as written (before expansion, so the API key read with `$(cat api.key)` is never printed).
 */
export function quickstartScript(blocks: DocBlock[], subs: Substitution[]): string {
  const server = blocks.filter((b) => b.marker === "test: quickstart-server");
  const program = blocks.filter((b) => b.marker === "test: quickstart-pulumi" || b.marker?.startsWith("file: "));
  if (!server.length || !program.length)
    throw new Error("the README has no quickstart blocks (<!-- test: quickstart-… -->)");
  const steps = [...server, ...program].map((b) => {
    if (!b.marker?.startsWith("file: ")) return b.code;
    const name = b.marker.slice("file: ".length).trim();
    return `cat > ${name} <<'QUICKSTART_FILE'\n${b.code}\nQUICKSTART_FILE`;
  });
  let script = steps.join("\n");
  for (const s of subs) {
    const before = script;
    script = script.replace(s.from, s.to);
    if (script === before) throw new Error(`the quickstarts no longer contain ${String(s.from)} (${s.why})`);
  }
  const echo = `trap 'printf "+ %s\\n" "$BASH_COMMAND" >&2' DEBUG`;
  return ["set -euo pipefail", "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT", echo, script, ""].join("\n");
}

/** Pulumi's `typescript` template (github.com/pulumi/templates), as `pulumi new --offline` reads it from PULUMI_HOME. */
export const TYPESCRIPT_TEMPLATE: Record<string, string> = {
  "Pulumi.yaml": [
    "name: ${PROJECT}",
    "description: ${DESCRIPTION}",
    "runtime:",
    "  name: nodejs",
    "  options:",
    "    packagemanager: npm",
    "config:",
    "  pulumi:tags:",
    "    value:",
    "      pulumi:template: typescript",
    "template:",
    "  description: A minimal TypeScript Pulumi program",
    "",
  ].join("\n"),
  "package.json": `${JSON.stringify(
    {
      name: "${PROJECT}",
      main: "index.ts",
      devDependencies: { "@types/node": "^24", typescript: "^5.0.0" },
      dependencies: { "@pulumi/pulumi": "^3.190.0" },
    },
    null,
    4,
  )}\n`,
  // The same compiler options `pulumi new typescript` writes, as import-as-code writes them too.
  "tsconfig.json": `${JSON.stringify(JSON.parse(tsconfigJson), null, 4)}\n`,
  "index.ts": 'import * as pulumi from "@pulumi/pulumi";\n',
  ".gitignore": "/bin/\n/node_modules/\n",
};
