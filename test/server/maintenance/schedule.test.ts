import { describe, expect, it } from "vitest";
import { windowActiveAt } from "../../../server/maintenance/schedule";

describe("maintenance window schedule", () => {
  // Sunday 4 January 2026, 02:00-04:00 in Berlin (CET, UTC+1), every Sunday.
  const sundays = {
    name: "w",
    monitor_ids: [],
    starts_at: "2026-01-04T01:00:00Z",
    ends_at: "2026-01-04T03:00:00Z",
    rrule: "FREQ=WEEKLY;BYDAY=SU",
    time_zone: "Europe/Berlin",
  };
  const at = (iso: string) => windowActiveAt(sundays, Date.parse(iso));

  it("repeats at the same wall-clock time across a DST change", () => {
    expect(at("2026-01-11T01:30:00Z")).toBe(true); // CET: 02:30 local
    expect(at("2026-07-05T00:30:00Z")).toBe(true); // CEST: 02:30 local
    expect(at("2026-07-05T02:30:00Z")).toBe(false); // 04:30 local: over
    expect(at("2026-07-04T00:30:00Z")).toBe(false); // a Saturday
  });

  it("is a single span without a rule, and never before its start", () => {
    expect(windowActiveAt({ ...sundays, rrule: null }, Date.parse("2026-01-04T02:59:59Z"))).toBe(true);
    expect(windowActiveAt({ ...sundays, rrule: null }, Date.parse("2026-01-04T03:00:00Z"))).toBe(false);
    expect(windowActiveAt({ ...sundays, rrule: null }, Date.parse("2026-01-11T01:30:00Z"))).toBe(false);
    expect(at("2025-12-28T01:30:00Z")).toBe(false);
  });
});
