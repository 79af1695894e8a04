import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packPackage } from "../../scripts/packed";
import { offlineEngine, REPO_ROOT } from "../../scripts/pulumi-engine";
import { blocksOf, type DocBlock, docBlocks } from "./blocks";
import { quickstartScript, substitutions, TYPESCRIPT_TEMPLATE } from "./quickstart";
import { freeFixedPort } from "../../scripts/free-port";

const run = promisify(execFile);

describe("the README's quickstarts", () => {
  const root = mkdtempSync(join(tmpdir(), "pulumi-uptime-quickstart-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  /** The README's blocks, then the docs' blocks that run against the quickstart's server (the REST API's curl examples). */
  let readme: DocBlock[];
  beforeAll(async () => {
    const all = await docBlocks(REPO_ROOT);
    readme = [
      ...all.filter((b) => b.file === "README.md"),
      ...all.filter((b) => b.file !== "README.md" && b.marker === "test: quickstart-server"),
    ];
  });

  it("run as written in a fresh folder: packed packages, a server on its own port, a program deployed, tested, drifted, repaired, destroyed", async () => {
    const packs = join(root, "packs");
    mkdirSync(packs);
    const tarballs = { provider: packPackage("provider", packs), server: packPackage("server", packs) };
    const engine = await offlineEngine({ stateDir: join(root, "engine") });
    // `pulumi new --offline` reads the templates from its clone of pulumi/templates in PULUMI_HOME
    // (a folder that is no such clone it deletes): the template is laid down as in one.
    const templates = join(engine.envVars.PULUMI_HOME as string, "templates");
    mkdirSync(join(templates, "typescript"), { recursive: true });
    for (const [name, text] of Object.entries(TYPESCRIPT_TEMPLATE))
      writeFileSync(join(templates, "typescript", name), text);
    await run("git", ["init", "-q", templates]);
    await run("git", ["-C", templates, "remote", "add", "origin", "https://github.com/pulumi/templates.git"]);
    const work = join(root, "work");
    const globalPrefix = join(root, "npm-global");
    mkdirSync(work);
    const script = quickstartScript(readme, substitutions(tarballs, await freeFixedPort()));
    const env = {
      ...process.env,
      ...engine.envVars,
      // `npm install -g` installs here, and its commands are on PATH first, as after a global install.
      npm_config_prefix: globalPrefix,
      npm_config_audit: "false",
      npm_config_fund: "false",
      npm_config_prefer_offline: "true",
      PATH: [join(globalPrefix, "bin"), engine.envVars.PATH].join(delimiter),
    };
    const result = await run("bash", ["-c", script], {
      cwd: work,
      env,
      encoding: "utf8",
      maxBuffer: 64 << 20,
      timeout: 15 * 60_000,
    }).catch((err: { stdout: string; stderr: string; code: number }) => ({ ...err, failed: true }));
    const out = `${result.stdout}\n${result.stderr}`;
    expect("failed" in result ? out : "", "a quickstart command failed").toBe("");
    expect(out).toMatch(/"ok":true,"data":\[\]/); // the first list: no monitors yet
    expect(out).toMatch(/Stack dev: 1 pass/); // pulumi-uptime test
    expect(out).toMatch(/paused: live true, declared false/); // the drift made with curl
    expect(out).toContain("drift: exit code 2");
    expect(out).toMatch(/<title>[^<]*My services[^<]*<\/title>/); // the status page people open
    expect(out).toMatch(/<title>[^<]*Home services[^<]*<\/title>/); // the self-hosting quickstart's own status page
    // docs/reference/rest-api.md: the answers its text describes.
    expect(out).toContain('"error":{"code":"unsupported_media_type"');
    expect(out).toMatch(/"code":"validation_failed".*"field":"interval_sec"/);
    expect(out).toMatch(/"data":\{"status":"up","checked_at"/); // the dry run
    expect(out).toContain("uptime-agent.service"); // docs/guides/production.md: the deployment files
    expect(out).toMatch(/<title>[^<]*Docs[^<]*<\/title>/);
  });

  it("stop at the first command that fails, and name it", async () => {
    const broken = await blocksOf(
      "README.md",
      [
        "<!-- test: quickstart-server -->",
        "```sh",
        "echo started",
        "ls no-such-file",
        "echo never",
        "```",
        "<!-- test: quickstart-pulumi -->",
        "```sh",
        "true",
        "```",
        "",
      ].join("\n"),
    );
    const failed = await run("bash", ["-c", quickstartScript(broken, [])], { cwd: root, encoding: "utf8" }).then(
      () => expect.unreachable("the script succeeded"),
      (err: { stdout: string; stderr: string; code: number }) => err,
    );
    expect(failed.code).not.toBe(0);
    expect(failed.stderr).toContain("+ ls no-such-file");
    expect(failed.stdout).toContain("started");
    expect(failed.stdout).not.toContain("never");
  });

  it("refuse to run when the README no longer holds a command the test substitutes", async () => {
    const blocks = await blocksOf(
      "README.md",
      [
        "<!-- test: quickstart-server -->",
        "```sh",
        "npm install -g some-other-server",
        "```",
        "<!-- test: quickstart-pulumi -->",
        "```sh",
        "true",
        "```",
        "",
      ].join("\n"),
    );
    expect(() => quickstartScript(blocks, substitutions({ provider: "p.tgz", server: "s.tgz" }, 1))).toThrow(
      /no longer contain/,
    );
  });
});
