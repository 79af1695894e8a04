import { describe, expect, it } from "vitest";
import { nodeTooOld } from "../../server/bin";

describe("uptime-server's Node.js check", () => {
  it("refuses every Node.js before 22.19 and takes 22.19 and later", () => {
    for (const version of ["18.20.4", "20.20.2", "22.0.0", "22.18.9"]) {
      expect(nodeTooOld(version)).toContain(`needs Node.js 22.19.0 or later; this is Node.js ${version}`);
    }
    for (const version of ["22.19.0", "22.20.1", "23.11.0", "24.0.0", "24.21.0", "100.0.0"]) {
      expect(nodeTooOld(version)).toBeUndefined();
    }
  });
});
