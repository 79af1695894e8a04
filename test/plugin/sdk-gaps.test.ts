import * as grpc from "@grpc/grpc-js";
import { describe, expect, it } from "vitest";
import { currentDeadline, type Deadline } from "../../provider/client/deadline";
import { patchProviderServer } from "../../plugin/sdk-gaps";

// The SDK's generated gRPC service, as the plugin's server registers it.
const { ResourceProviderService } = require("@pulumi/pulumi/proto/provider_grpc_pb") as {
  ResourceProviderService: grpc.ServiceDefinition;
};

type Handler = (call: { request: unknown }, callback: () => void) => Promise<Deadline | undefined>;

describe("the plugin's gRPC handlers", () => {
  it("run create, update and delete under the request's timeout (the resource's customTimeouts)", async () => {
    patchProviderServer(
      () => undefined,
      async () => ({ changes: false, replaces: [], deleteBeforeReplace: true, diffs: [], detailedDiff: {} }),
      (_olds, news) => news,
    );
    const seen = async () => currentDeadline();
    const impl: Record<string, Handler> = {
      configure: seen,
      read: seen,
      create: seen,
      update: seen,
      delete: seen,
      check: seen,
    };
    new grpc.Server().addService(ResourceProviderService, impl as unknown as grpc.UntypedServiceImplementation);
    const call = (timeout: number) => ({ request: { getTimeout: () => timeout } });
    for (const action of ["create", "update", "delete"]) {
      const deadline = await (impl[action] as Handler)(call(2.5), () => undefined);
      expect(deadline, action).toMatchObject({ ms: 2500, setting: `customTimeouts.${action}` });
      expect(deadline?.signal.aborted).toBe(false);
      // No customTimeouts: the engine sends 0, and nothing is limited.
      expect(await (impl[action] as Handler)(call(0), () => undefined)).toBeUndefined();
    }
    expect(await (impl.check as Handler)(call(2.5), () => undefined)).toBeUndefined();
  });
});
