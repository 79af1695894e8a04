import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../scripts/pulumi-engine";
import { useServer, useStack } from "../support/engine-suite";
import { cli } from "./cli";

/** The TypeScript block of a guide that contains `marker`, as the guide writes it. */
function guideBlock(guide: string, marker: string): string {
  const text = readFileSync(join(REPO_ROOT, "docs/guides", guide), "utf8");
  const block = [...text.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] as string).find((b) => b.includes(marker));
  if (!block) throw new Error(`${guide} has no TypeScript block with ${marker}`);
  return block;
}

/** The start of a terminal colour code. */
const ESC = String.fromCharCode(27);
const PRELUDE = `import * as uptime from "pulumi-uptime";\n`;

/**
 * What a newcomer meets at `pulumi preview` with the packed package, through the real engine:
 * the rules only the service knows are checked there, and a typo is not dropped.
 */
describe("pulumi preview in the first hour", () => {
  const s = useServer();
  // Each test writes the program and sets the connection it previews with.
  const { stack, program } = useStack({ program: "test/engine/programs/smoke" });

  const previewOf = async (source: string, config: Record<string, string> = {}) => {
    writeFileSync(join(program.workDir, "index.ts"), PRELUDE + source);
    await stack.setAllConfig({
      "uptime:baseUrl": { value: s.url },
      "uptime:apiKey": { value: config.apiKey ?? s.key, secret: true },
    });
    return stack.preview().then(
      () => "no error",
      (err: Error) => err.message,
    );
  };

  it("fails the guide's retry example at preview: the account has no location eu-west", async () => {
    const example = guideBlock("journeys-and-retries.md", `locations: ["local", "eu-west"]`);
    const failed = await previewOf(`const base = "https://shop.example.com";\n${example}`);
    expect(failed).toContain(
      "locations[1]: eu-west is not one of the account's locations (local); an agent key makes it one: uptime-server keys create --db <database> --account <account> --scope agent --location eu-west",
    );
    expect((await s.call("GET", "/api/v1/monitors")).body.data).toEqual([]);
  });

  it("fails the preview with a wrong API key, saying where the key came from", async () => {
    const failed = await previewOf(
      `new uptime.Monitor("api", { type: "http", url: "https://api.example.com", intervalSec: 60 });\n`,
      { apiKey: "uk_wrongwrongwrongwrongwrongwrongwrong" },
    );
    expect(failed).toMatch(
      /property connection .* has a problem: the service at http:\/\/127\.0\.0\.1:\d+ refused the API key from the stack config `uptime:apiKey` \(HTTP 401\)/,
    );
    expect(failed).toContain("pulumi config set --secret uptime:apiKey");
  });

  it("fails a typo that came through a spread, with the name it meant", async () => {
    const failed = await previewOf(
      `const common = { intervalSec: 60, expectedStatusCode: [204] };\nnew uptime.Monitor("api", { type: "http", url: "https://api.example.com", ...common });\n`,
    );
    expect(failed).toContain("expectedStatusCode: a monitor has no such input; did you mean `expectedStatusCodes`?");
  });

  it("fails a lookup that matches nothing with one clean error: the lookup, what was asked, what the account has", async () => {
    await s.call("POST", "/api/v1/channels", { name: "ops", type: "email", config: { address: "ops@example.com" } });
    const failed = await previewOf(`const ops = uptime.getChannelOutput({ name: "opps" });
new uptime.Monitor("api", { type: "http", url: "https://api.example.com", intervalSec: 60, channelIds: [ops.id] });
`);
    expect(failed).toContain(
      `getChannel({ name: "opps" }) failed: name "opps" matches 0 channels at ${s.url}, not exactly 1; the account's channels are "ops": check the name's spelling`,
    );
    expect(failed).not.toMatch(/PromiseRejectionHandledWarning|\n\s+at /);
    expect(failed).not.toContain(ESC);
  });

  it("fails a lookup with a wrong API key with one clean error saying where the key came from", async () => {
    const failed = await previewOf(
      `export const ops = uptime.getChannel({ name: "ops" }).then((c) => c.id);
`,
      { apiKey: "uk_wrongwrongwrongwrongwrongwrongwrong" },
    );
    expect(failed).toContain(`getChannel({ name: "ops" }) failed: uptime API unauthorized (HTTP 401`);
    expect(failed).toContain("refused the API key from the stack config `uptime:apiKey`");
    expect(failed).not.toMatch(/UptimeApiError|PromiseRejectionHandledWarning|\n\s+at /);
    expect(failed).not.toContain(ESC);
  });

  it("names a step's field and a script's line and column with the offending line, without `value {<nil>}` or the whole script", async () => {
    const step = await previewOf(`new uptime.Monitor("journey", { type: "multistep", intervalSec: 60, steps: [
  { name: "home", url: "https://shop.example.com/" },
  { name: "read", url: "https://shop.example.com/items/{{id}}" },
] });
`);
    expect(step).toMatch(/journey'? has a problem: steps\[1\][^\n]*\bid\b/);
    expect(step).not.toContain("<nil>");
    const script = await previewOf(`new uptime.Monitor("ui", { type: "browser", intervalSec: 300, script: [
  "await page.goto('https://shop.example.com/');",
  "await expect(page.getByText('Welcome')).toBeVisible();",
  "await page.click('#buy';",
  "await expect(page).toHaveURL(/checkout/);",
].join("\\n") });
`);
    expect(script).toMatch(
      /ui'? has a problem: script: does not parse as JavaScript: Unexpected token at line 3, column 24: `await page\.click\('#buy';`/,
    );
    expect(script).not.toContain("Welcome");
  });

  it("passes the same monitors spelled right, at a location the account has", async () => {
    const passed = await previewOf(
      `new uptime.Monitor("api", { type: "http", url: "https://api.example.com", intervalSec: 60, expectedStatusCodes: [204], locations: ["local"] });\n`,
    );
    expect(passed).toBe("no error");
  });
});

/** `pulumi-uptime drift` after the first `up`: a changed key, a resource new in the program. */
describe("pulumi-uptime drift in the first hour", () => {
  const s = useServer();
  const { stack, engine, program } = useStack({ program: "test/engine/programs/smoke", server: s });

  const drift = (json: boolean) => cli(engine, program.workDir, ["drift", ...(json ? ["--json"] : [])]);
  const setKey = (key: string) =>
    stack.setAllConfig({ "uptime:baseUrl": { value: s.url }, "uptime:apiKey": { value: key, secret: true } });

  beforeAll(async () => {
    writeFileSync(
      join(program.workDir, "index.ts"),
      `${PRELUDE}new uptime.Monitor("api", { type: "http", url: "https://api.example.com", intervalSec: 60 });\n`,
    );
    await stack.up();
  });

  it("is in sync after up, and a resource only in the program is not created yet, not deleted outside Pulumi", async () => {
    expect(await drift(false)).toEqual({ code: 0, stdout: "Stack dev: in sync with the live service.\n" });
    writeFileSync(
      join(program.workDir, "index.ts"),
      `${PRELUDE}new uptime.Monitor("api", { type: "http", url: "https://api.example.com", intervalSec: 60 });\nnew uptime.Monitor("web", { type: "http", url: "https://www.example.com", intervalSec: 60 });\n`,
    );
    const found = await drift(false);
    expect(found.code).toBe(2);
    expect(found.stdout).toContain("uptime:Monitor web: not created yet (new in the program); `pulumi up` creates it");
    expect(found.stdout).not.toContain("deleted outside Pulumi");
  });

  it("with a changed key that the service refuses: exit 1 with the refusal, and Pulumi's provider is no drift", async () => {
    await setKey("uk_changedchangedchangedchangedchanged");
    const refused = await drift(false);
    expect(refused.code).toBe(1);
    expect(refused.stdout).not.toContain("pulumi:providers");
    await setKey(s.key);
  });
});
