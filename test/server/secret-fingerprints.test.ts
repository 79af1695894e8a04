import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { SecretBox } from "../../server/secrets";

/** Fingerprints are remembered between reads, and never outlive the key they were made with. */
describe("remembered fingerprints", () => {
  const dir = mkdtempSync(join(tmpdir(), "secret-fingerprints-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("a fingerprint read again is the MAC of the same data, and changes when the value does", () => {
    const box = SecretBox.ensure(join(dir, "one.key"));
    const first = box.fingerprint("monitor-header\0mon_1\0authorization\0Bearer a");
    expect(box.fingerprint("monitor-header\0mon_1\0authorization\0Bearer a")).toBe(first);
    expect(first).toBe(box.mac("monitor-header\0mon_1\0authorization\0Bearer a"));
    expect(box.fingerprint("monitor-header\0mon_1\0authorization\0Bearer b")).not.toBe(first);
  });

  it("a key file whose oldest key was replaced by another process gives new fingerprints, not remembered ones", () => {
    const file = join(dir, "two.key");
    const box = SecretBox.ensure(file);
    const before = box.fingerprint("monitor-variable\0mon_1\0PASSWORD\0hunter2");
    // Another process replaces the whole ring (the oldest key, which fingerprints derive from, goes).
    rmSync(file);
    const other = SecretBox.ensure(file);
    // Opening a value sealed under a key it does not know makes the first box read the file again.
    expect(box.open(other.seal("hello"))).toBe("hello");
    const after = box.fingerprint("monitor-variable\0mon_1\0PASSWORD\0hunter2");
    expect(after).toBe(other.mac("monitor-variable\0mon_1\0PASSWORD\0hunter2"));
    expect(after).not.toBe(before);
  });
});
