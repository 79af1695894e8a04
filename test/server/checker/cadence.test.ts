import { describe, expect, it } from "vitest";
import { nextDue, phase, START_SPREAD_MS, startDue } from "../../../server/checker/cadence";

describe("cadence of both schedules", () => {
  const now = 1_000_000;
  const minute = 60_000;

  it("gives each key one phase, within the span", () => {
    expect(phase("mon_a", 10_000)).toBe(phase("mon_a", 10_000));
    expect(phase("mon_a", 0)).toBe(0);
    const phases = new Set(Array.from({ length: 50 }, (_, i) => phase(`mon_${i}`, START_SPREAD_MS)));
    for (const p of phases) {
      expect(p).toBeGreaterThanOrEqual(0);
      expect(p).toBeLessThan(START_SPREAD_MS);
    }
    expect(phases.size).toBeGreaterThan(40);
  });

  it("spreads at start the checks due now, or only the never checked ones, or none", () => {
    const spread = phase("mon_a", START_SPREAD_MS);
    expect(spread).toBeGreaterThan(0);
    expect(startDue("mon_a", minute, undefined, now, "due")).toBe(now + spread);
    expect(startDue("mon_a", minute, now - 2 * minute, now, "due")).toBe(now + spread);
    expect(startDue("mon_a", minute, now - 2 * minute, now, "unchecked")).toBe(now);
    expect(startDue("mon_a", minute, undefined, now, "unchecked")).toBe(now + spread);
    expect(startDue("mon_a", minute, undefined, now, false)).toBe(now);
    // Not due yet: an interval after the last check, whatever the spread.
    for (const s of ["due", "unchecked", false] as const)
      expect(startDue("mon_a", minute, now - 1000, now, s)).toBe(now - 1000 + minute);
    // A short interval spreads over the interval only.
    expect(startDue("mon_a", 1000, undefined, now, "due")).toBe(now + phase("mon_a", 1000));
  });

  it("keeps the cadence and skips the checks missed", () => {
    expect(nextDue(now, minute, now)).toBe(now + minute);
    expect(nextDue(now, minute, now + minute)).toBe(now + 2 * minute);
    expect(nextDue(now, minute, now + 3.5 * minute)).toBe(now + 4 * minute);
  });
});
