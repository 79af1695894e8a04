import { describe, expect, it } from "vitest";
import { Channel, MaintenanceWindow, Monitor, StatusPage } from "../../provider";

// What `@pulumi/policy` does with a resource class: it reads `Class.__pulumiType`, and where that
// is missing calls `Class.isInstance({ __pulumiType: <the engine's type> })`.
const CLASSES = { Monitor, Channel, StatusPage, MaintenanceWindow };

describe("resource classes carry their type token", () => {
  for (const [kind, cls] of Object.entries(CLASSES)) {
    it(`${kind}.__pulumiType is the token the engine reports, and isInstance accepts what a policy pack builds from it`, () => {
      const token = `pulumi-nodejs:dynamic/uptime:${kind}`;
      expect(cls.__pulumiType).toBe(token);
      expect(cls.isInstance({ __pulumiType: token })).toBe(true);
    });
  }

  it("isInstance refuses another kind's token, the generic dynamic resource and non-objects", () => {
    expect(Monitor.isInstance({ __pulumiType: Channel.__pulumiType })).toBe(false);
    expect(StatusPage.isInstance({ __pulumiType: "pulumi-nodejs:dynamic:Resource" })).toBe(false);
    expect(MaintenanceWindow.isInstance(undefined)).toBe(false);
    expect(Channel.isInstance("pulumi-nodejs:dynamic/uptime:Channel")).toBe(false);
  });
});
