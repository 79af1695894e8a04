// A deploy service as teams write one on Pulumi's Automation API: one long-lived Node process that
// runs `up`, `preview`, `refresh` and `destroy` of inline programs, for several stacks, one
// operation after another. It prints one JSON line per operation: what the engine answered, or
// the error, or "hang" when the operation did not end within its time limit.
//
// Environment: UPTIME_URL and UPTIME_KEY (the service), PULUMI_BIN (the folder of the CLI) and
// the engine's variables (PULUMI_HOME, PULUMI_BACKEND_URL, PULUMI_CONFIG_PASSPHRASE, PATH).
const { mkdtempSync } = require("node:fs");
const { tmpdir } = require("node:os");
const { dirname, join } = require("node:path");
const { LocalWorkspace, PulumiCommand } = require("@pulumi/pulumi/automation");
const uptime = require("pulumi-uptime");

const LIMIT_MS = Number(process.env.OPERATION_LIMIT_MS ?? 150_000);

/** The program every stack runs: two monitors, the second on the first's tag. */
const monitors = async () => {
  const api = new uptime.Monitor("api", { type: "http", url: "https://api.example.com/health", intervalSec: 60, tags: ["deploy-service"] });
  const web = new uptime.Monitor("web", { type: "http", url: "https://www.example.com/", intervalSec: 60, tags: ["deploy-service"] });
  return { ids: [api.id, web.id] };
};

const failing = async () => {
  throw new Error("the program failed on purpose");
};

async function stackOf(name, program, workDir = __dirname) {
  const pulumiCommand = await PulumiCommand.get({ root: dirname(process.env.PULUMI_BIN) });
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName: name, projectName: "deploy-service", program },
    { workDir, pulumiCommand, projectSettings: { name: "deploy-service", runtime: "nodejs" } },
  );
  await stack.setAllConfig({ "uptime:baseUrl": { value: process.env.UPTIME_URL }, "uptime:apiKey": { value: process.env.UPTIME_KEY, secret: true } });
  return stack;
}

/** Runs one operation within the time limit and prints what became of it. */
async function op(label, run) {
  let timer;
  const limit = new Promise((resolve) => (timer = setTimeout(() => resolve({ label, outcome: "hang" }), LIMIT_MS)));
  const done = run().then(
    (r) => ({ label, outcome: "ok", changes: r.changeSummary ?? r.summary?.resourceChanges ?? null }),
    (e) => ({ label, outcome: "error", error: String(e.message ?? e).slice(-(Number(process.env.ERROR_CHARS) || 8000)) }),
  );
  const result = await Promise.race([done, limit]);
  clearTimeout(timer);
  process.stdout.write(`${JSON.stringify(result)}\n`);
  return result;
}

async function main() {
  const scenario = process.argv[2];
  if (scenario === "lifecycle") {
    const stack = await stackOf("lifecycle", monitors);
    await op("up", () => stack.up());
    await op("preview", () => stack.preview());
    await op("up again", () => stack.up());
    await op("refresh", () => stack.refresh());
    await op("preview after refresh", () => stack.preview());
    await op("destroy", () => stack.destroy());
  } else if (scenario === "two-stacks") {
    const [blue, green] = [await stackOf("blue", monitors), await stackOf("green", monitors)];
    await op("up both at once", () => Promise.all([blue.up(), green.up()]).then((rs) => ({ changeSummary: rs.map((r) => r.summary.resourceChanges) })));
    await op("preview blue", () => blue.preview());
    await op("preview green", () => green.preview());
    await op("destroy both", () => Promise.all([blue.destroy(), green.destroy()]).then(() => ({ changeSummary: null })));
  } else if (scenario === "after-failure") {
    const broken = await stackOf("after-failure", failing);
    await op("failing up", () => broken.up());
    const stack = await stackOf("after-failure", monitors);
    await op("up", () => stack.up());
    await op("preview", () => stack.preview());
    await op("destroy", () => stack.destroy());
  } else if (scenario === "no-sdk-folder") {
    // A folder whose node_modules has no @pulumi/pulumi, as the working directory of a container.
    const bare = await stackOf("no-sdk-folder", monitors, mkdtempSync(join(tmpdir(), "bare-")));
    await op("up in a folder without the SDK", () => bare.up());
    const stack = await stackOf("no-sdk-folder", monitors);
    await op("up", () => stack.up());
    await op("destroy", () => stack.destroy());
  } else {
    throw new Error(`unknown scenario ${scenario}`);
  }
}

main().then(
  () => process.exit(0),
  (e) => {
    process.stderr.write(`${e.stack ?? e}\n`);
    process.exit(1);
  },
);
