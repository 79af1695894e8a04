import { describe, expect, it } from "vitest";
import { monitorParam } from "../../../server/store/monitor-rows";

describe("the monitor a write statement changes rows of (monitorParam)", () => {
  it("finds the parameter of the monitor's column in an INSERT of one row, an UPDATE and a DELETE", () => {
    expect(monitorParam("INSERT INTO heartbeats (id, monitor_id, checked_at) VALUES (?, ?, ?)")).toBe(1);
    expect(
      monitorParam(
        "INSERT INTO heartbeat_days (monitor_id, day, checks) VALUES (?, ?, 1) ON CONFLICT (monitor_id, day) DO UPDATE SET checks = heartbeat_days.checks + 1",
      ),
    ).toBe(0);
    expect(monitorParam("INSERT INTO monitors (id, account_id, status, spec) VALUES (?, ?, 'a, (b)?', ?)")).toBe(0);
    expect(monitorParam("UPDATE incidents SET ended_at = ? WHERE monitor_id = ? AND ended_at IS NULL")).toBe(1);
    expect(monitorParam("UPDATE monitors SET spec = ?, note = '?' WHERE id = ? AND account_id = ?")).toBe(1);
    expect(monitorParam("DELETE FROM monitors WHERE id = ? AND account_id = ?")).toBe(0);
  });

  it("finds none where the rows may be any monitor's", () => {
    for (const sql of [
      "INSERT INTO heartbeat_days (monitor_id, day) VALUES (?, ?), (?, ?)",
      "INSERT INTO heartbeats (id, monitor_id) SELECT id, monitor_id FROM old",
      "DELETE FROM heartbeats WHERE checked_at < ?",
      "DELETE FROM monitors WHERE account_id = ?",
      "UPDATE heartbeats SET up = ? WHERE monitor_id = ? OR up = 0",
      "UPDATE heartbeats SET up = ? WHERE monitor_id IN (?, ?)",
      "UPDATE check_leases SET done = 1 WHERE monitor_id = ?",
      "INSERT INTO status_pages (id, slug) VALUES (?, ?)",
    ])
      expect(monitorParam(sql), sql).toBeUndefined();
  });
});
