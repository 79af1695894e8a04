import {
  specialArchiveSig,
  specialAssetSig,
  specialResourceSig,
  specialSecretSig,
  specialSigKey,
} from "@pulumi/pulumi/runtime/rpc";
import { describe, expect, it } from "vitest";
import { isSecret } from "../../provider/commands/drift";

describe("drift report", () => {
  it("treats only secrets as secret, not assets, archives or resource references", () => {
    expect(isSecret({ [specialSigKey]: specialSecretSig, value: "token" })).toBe(true);
    expect(isSecret({ [specialSigKey]: specialAssetSig, text: "hello" })).toBe(false);
    expect(isSecret({ [specialSigKey]: specialArchiveSig, assets: {} })).toBe(false);
    expect(isSecret({ [specialSigKey]: specialResourceSig, urn: "urn:pulumi:s::p::uptime:Monitor::m" })).toBe(false);
    expect(isSecret("plain")).toBe(false);
    expect(isSecret(null)).toBe(false);
  });
});
