import { execFileSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { targetProblem } from "../../server/outbound";

interface Row {
  kind: string;
  target: string;
  allowPrivate: boolean;
  createCheck: string;
  expected: string;
  outcome: string;
  error: string | null;
}

// Every address the table dials lives on the loopback device of a fresh network namespace.
const SETUP = [
  "ip link set lo up",
  ...["8.8.8.8/32", "10.0.0.1/32", "169.254.169.254/32", "192.168.1.1/32", "100.64.0.1/32"].map(
    (a) => `ip addr add ${a} dev lo`,
  ),
  ...["2001:4860:4860::8888/128", "fd00::1/128"].map((a) => `ip -6 addr add ${a} dev lo nodad`),
  "exec node_modules/.bin/node test/support/ssrf-table.mjs",
].join(" && ");

describe("outbound policy table (in a private network namespace)", () => {
  it("reaches global unicast targets only, on every hop, for probes and deliveries", () => {
    const out = execFileSync("unshare", ["-rn", "sh", "-c", SETUP], { encoding: "utf8", timeout: 120_000 });
    const { rows, reached } = JSON.parse(out) as { rows: Row[]; reached: { local: string; path: string }[] };
    const table = rows
      .map(
        (r) =>
          `${r.kind}\t${r.allowPrivate ? "private-allowed" : "default"}\t${r.target}\t→ ${r.outcome}${r.error ? ` (${r.error})` : ""}`,
      )
      .join("\n");
    console.log(table);
    expect(rows.length).toBeGreaterThanOrEqual(30);
    for (const row of rows)
      expect({ target: row.target, outcome: row.outcome }).toEqual({ target: row.target, outcome: row.expected });
    expect(reached.filter((r) => r.path === "/secret")).toEqual([]);
    const refusedErrors = rows.filter((r) => r.outcome === "refused" && r.kind === "probe").map((r) => r.error ?? "");
    for (const error of refusedErrors) expect(error).toMatch(/outbound policy|never reached/);
  });
});

describe("targetProblem (create and PATCH time)", () => {
  it.each([
    "http://127.0.0.1/",
    "http://[::1]/",
    "http://169.254.169.254/latest/meta-data",
    "http://10.0.0.1/",
    "http://localhost:3000/",
    "http://api.localhost/",
    "http://db.internal/",
    "http://nas.local/",
    "http://intranet/",
    "http://[::ffff:10.0.0.1]/",
    "http://[64:ff9b::a9fe:a9fe]/",
  ])("refuses %s by default", (url) => {
    expect(targetProblem(url, false)).toMatch(/must not point at a private, loopback or metadata host/);
  });

  it("allows public names and addresses, and private ones when allowed, never metadata", () => {
    expect(targetProblem("https://user:pass@example.com/x", false)).toBeUndefined();
    expect(targetProblem("http://[2606:4700::1]/", false)).toBeUndefined();
    expect(targetProblem("http://127.0.0.1:8080/", true)).toBeUndefined();
    expect(targetProblem("http://localhost/", true)).toBeUndefined();
    expect(targetProblem("http://[::1]:8080/", true)).toBeUndefined();
    expect(targetProblem("http://169.254.169.254/", true)).toMatch(/never reached/);
    expect(targetProblem("http://[fe80::1]/", true)).toMatch(/never reached/);
    expect(targetProblem("http://metadata.google.internal/", true)).toMatch(/metadata/);
  });
});
