/**
 * Workarounds for two gaps in the provider server of `@pulumi/pulumi/provider` (3.259.0), which
 * the plugin's `main()` runs. Both patch the gRPC handlers before the SDK registers them.
 *
 * 1. `configure` drops the request: the provider never sees its config (`uptime:baseUrl`,
 *    `uptime:apiKey`, or an explicit provider's arguments). We read it here and hand it on.
 * 2. `read` calls `req.getProperties().toJavaScript()`, which throws on `pulumi import`, where the
 *    engine sends an id and no properties. We send an empty property set instead.
 * 3. `read` drops the old inputs the engine sends. The provider needs one of them: the record of
 *    secrets an import left undeclared (see provider/runtime/secret-inputs.ts), which a refresh
 *    must keep. We hand it on among the properties.
 *
 * Remove this file when the SDK's server passes the config to `Provider.configure`, tolerates a
 * read without properties and passes a read its old inputs (check `provider/server.js` of each @pulumi/pulumi upgrade).
 */
import * as grpc from "@grpc/grpc-js";
import { UNDECLARED } from "../provider/runtime/secret-inputs";

/** The provider's config as the engine sent it. */
export interface ProviderConfig {
  baseUrl?: string;
  apiKey?: string;
}

interface StructLike {
  toJavaScript(): Record<string, unknown>;
}
interface ConfigureRequestLike {
  getVariablesMap(): { get(key: string): string | undefined };
  getArgs(): StructLike | undefined;
}
interface ReadRequestLike {
  getProperties(): StructLike | undefined;
  getInputs(): StructLike | undefined;
  setProperties(value: StructLike): void;
}
type Handler = (call: { request: unknown }, callback: unknown) => unknown;

// A secret argument arrives as { <sig key>: <secret sig>, value }.
const plain = (value: unknown): unknown =>
  value && typeof value === "object" && "value" in value ? (value as { value: unknown }).value : value;

function configOf(req: ConfigureRequestLike): ProviderConfig {
  const args = req.getArgs()?.toJavaScript() ?? {};
  const vars = req.getVariablesMap();
  const pick = (key: keyof ProviderConfig): string | undefined => {
    const value = plain(args[key]) ?? vars.get(`uptime:config:${key}`) ?? vars.get(`uptime:${key}`);
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  return { baseUrl: pick("baseUrl"), apiKey: pick("apiKey") };
}

/** Patches the handlers of the provider service registered after this call. */
export function patchProviderServer(onConfigure: (config: ProviderConfig) => void): void {
  const { Struct } = require("google-protobuf/google/protobuf/struct_pb") as {
    Struct: (new () => StructLike) & { fromJavaScript(value: Record<string, unknown>): StructLike };
  };
  const addService = grpc.Server.prototype.addService;
  grpc.Server.prototype.addService = function (service, implementation) {
    const impl = implementation as Record<string, Handler>;
    const configure = impl.configure?.bind(impl);
    const read = impl.read?.bind(impl);
    if (configure && read) {
      impl.configure = (call, callback) => {
        onConfigure(configOf(call.request as ConfigureRequestLike));
        return configure(call, callback);
      };
      impl.read = (call, callback) => {
        const req = call.request as ReadRequestLike;
        const undeclared = req.getInputs()?.toJavaScript()[UNDECLARED];
        if (undeclared !== undefined) {
          req.setProperties(Struct.fromJavaScript({ ...(req.getProperties()?.toJavaScript() ?? {}), [UNDECLARED]: undeclared }));
        } else if (!req.getProperties()) req.setProperties(new Struct());
        return read(call, callback);
      };
    }
    return addService.call(this, service, implementation);
  };
}
