/**
 * Workarounds for three gaps in the provider server of `@pulumi/pulumi/provider` (3.259.0), which
 * the plugin's `main()` runs. All patch the gRPC handlers before the SDK registers them.
 *
 * 1. `configure` drops the request: the provider never sees its config (`uptime:baseUrl`,
 *    `uptime:apiKey`, or an explicit provider's arguments). We read it here and hand it on.
 * 2. `read` calls `req.getProperties().toJavaScript()`, which throws on `pulumi import`, where the
 *    engine sends an id and no properties. We send an empty property set instead.
 * 3. `checkConfig` answers "not implemented", so a provider cannot add to its own inputs. We
 *    answer it: the plugin keeps its stack instance there (see `checkProviderInputs`).
 *
 * Remove this file when the SDK's server passes the config to `Provider.configure`, tolerates a
 * read without properties and lets a provider check its config (check `provider/server.js` of
 * each @pulumi/pulumi upgrade).
 */
import * as grpc from "@grpc/grpc-js";

/** The provider's config as the engine sent it. */
export interface ProviderConfig {
  baseUrl?: string;
  apiKey?: string;
  /** The provider's stack instance, which `checkConfig` put into its inputs. */
  stackInstance?: string;
}

/** The provider's inputs: the olds from the state (empty for a new provider), the news as configured. */
export type CheckProviderInputs = (olds: Record<string, unknown>, news: Record<string, unknown>) => Record<string, unknown>;

interface StructLike {
  toJavaScript(): Record<string, unknown>;
}
interface ConfigureRequestLike {
  getVariablesMap(): { get(key: string): string | undefined };
  getArgs(): StructLike | undefined;
}
interface CheckRequestLike {
  getOlds(): StructLike | undefined;
  getNews(): StructLike | undefined;
}
interface ReadRequestLike {
  getProperties(): StructLike | undefined;
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
  return { baseUrl: pick("baseUrl"), apiKey: pick("apiKey"), stackInstance: pick("stackInstance") };
}

/** Patches the handlers of the provider service registered after this call. */
export function patchProviderServer(onConfigure: (config: ProviderConfig) => void, checkConfig: CheckProviderInputs): void {
  const { Struct } = require("google-protobuf/google/protobuf/struct_pb") as {
    Struct: { new (): StructLike; fromJavaScript(value: Record<string, unknown>): StructLike };
  };
  const { CheckResponse } = require("@pulumi/pulumi/proto/provider_pb") as {
    CheckResponse: new () => { setInputs(value: StructLike): void };
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
      impl.checkConfig = (call, callback) => {
        const req = call.request as CheckRequestLike;
        const resp = new CheckResponse();
        try {
          resp.setInputs(Struct.fromJavaScript(checkConfig(req.getOlds()?.toJavaScript() ?? {}, req.getNews()?.toJavaScript() ?? {})));
        } catch (err) {
          return (callback as (err: unknown) => void)(err);
        }
        return (callback as (err: null, resp: unknown) => void)(null, resp);
      };
      impl.read = (call, callback) => {
        const req = call.request as ReadRequestLike;
        if (!req.getProperties()) req.setProperties(new Struct());
        return read(call, callback);
      };
    }
    return addService.call(this, service, implementation);
  };
}
