/**
 * Workarounds for six gaps in the provider server of `@pulumi/pulumi/provider` (3.259.0), which
 * the plugin's `main()` runs. All patch the gRPC handlers before the SDK registers them.
 *
 * 1. `configure` drops the request: the provider never sees its config (`uptime:baseUrl`,
 *    `uptime:apiKey`, or an explicit provider's arguments). We read it here and hand it on.
 * 2. `read` calls `req.getProperties().toJavaScript()`, which throws on `pulumi import`, where the
 *    engine sends an id and no properties. We send an empty property set instead.
 * 3. `create`, `update` and `delete` drop the request's `timeout` (the resource's `customTimeouts`):
 *    we run each call under that limit (see provider/client/deadline.ts).
 * 4. `diff` answers without a detailed diff or changed keys (its `DiffResult` has neither) and
 *    passes no old inputs: the CLI then lists every input that differs in any spelling, and the
 *    engine ignores `replaceOnChanges`. We answer `Diff` ourselves with both.
 * 5. `checkConfig` answers "not implemented", so a provider cannot add to its own inputs. We
 *    answer it: the plugin keeps its stack instance there (see `checkProviderInputs`).
 * 6. `read` drops the old inputs the engine sends. The provider needs one of them: the record of
 *    secrets an import left undeclared (see provider/runtime/secret-inputs.ts), which a refresh
 *    must keep. We hand it on among the properties.
 *
 * Remove this file when the SDK's server passes the config to `Provider.configure`, tolerates a
 * read without properties, passes a read its old inputs, sends a detailed diff and lets a
 * provider check its config (check `provider/server.js` of each @pulumi/pulumi upgrade).
 */
import * as grpc from "@grpc/grpc-js";
import { withDeadline } from "../provider/client/deadline";
import type { PluginDiff } from "./detailed-diff";
import { UNDECLARED } from "../provider/runtime/secret-inputs";

/** The provider's config as the engine sent it. */
export interface ProviderConfig {
  baseUrl?: string;
  apiKey?: string;
  allowInsecureHttp?: string;
  /** The provider's stack instance, which `checkConfig` put into its inputs. */
  stackInstance?: string;
}

/** The provider's inputs: the olds from the state (empty for a new provider), the news as configured. */
export type CheckProviderInputs = (
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
) => Record<string, unknown>;

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
  getInputs(): StructLike | undefined;
  setProperties(value: StructLike): void;
}
interface TimedRequestLike {
  getTimeout(): number;
}
interface DiffRequestLike {
  getId(): string;
  getUrn(): string;
  getOlds(): StructLike | undefined;
  getNews(): StructLike | undefined;
  getOldInputs(): StructLike | undefined;
}
type Handler = (call: { request: unknown }, callback: unknown) => unknown;
type Callback = (err: unknown, response?: unknown) => void;

/** The plugin's diff: state's outputs (`olds`) and inputs (`oldInputs`) against the program's. */
export type DiffFunction = (
  id: string,
  urn: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  oldInputs: Record<string, unknown>,
) => Promise<PluginDiff>;

/** The handler, run under the request's timeout (seconds; 0 for none). */
function timed(action: string, handler: Handler): Handler {
  return (call, callback) => {
    const seconds = (call.request as TimedRequestLike).getTimeout?.() ?? 0;
    return withDeadline(seconds * 1000, `customTimeouts.${action}`, async () => handler(call, callback));
  };
}

// A secret argument arrives as { <sig key>: <secret sig>, value }.
const plain = (value: unknown): unknown =>
  value && typeof value === "object" && "value" in value ? (value as { value: unknown }).value : value;

function configOf(req: ConfigureRequestLike): ProviderConfig {
  const args = req.getArgs()?.toJavaScript() ?? {};
  const vars = req.getVariablesMap();
  const pick = (key: keyof ProviderConfig): string | undefined => {
    const value = plain(args[key]) ?? vars.get(`uptime:config:${key}`) ?? vars.get(`uptime:${key}`);
    if (typeof value === "boolean") return String(value);
    return typeof value === "string" && value !== "" ? value : undefined;
  };
  return {
    baseUrl: pick("baseUrl"),
    apiKey: pick("apiKey"),
    allowInsecureHttp: pick("allowInsecureHttp"),
    stackInstance: pick("stackInstance"),
  };
}

/** The gRPC answer to `Diff`, with the detailed diff and the changed keys. */
async function answerDiff(req: DiffRequestLike, diff: DiffFunction): Promise<unknown> {
  // The SDK's own generated messages: the server serializes what the handler returns with them.
  const proto = require("@pulumi/pulumi/proto/provider_pb") as ProviderProto;
  const js = (s: StructLike | undefined) => s?.toJavaScript() ?? {};
  const result = await diff(req.getId(), req.getUrn(), js(req.getOlds()), js(req.getNews()), js(req.getOldInputs()));
  const resp = new proto.DiffResponse();
  resp.setChanges(result.changes ? proto.DiffResponse.DiffChanges.DIFF_SOME : proto.DiffResponse.DiffChanges.DIFF_NONE);
  resp.setReplacesList(result.replaces);
  resp.setDeletebeforereplace(result.deleteBeforeReplace);
  resp.setDiffsList(result.diffs);
  resp.setHasdetaileddiff(true);
  const detailed = resp.getDetaileddiffMap();
  for (const [path, d] of Object.entries(result.detailedDiff)) {
    const entry = new proto.PropertyDiff();
    entry.setKind(proto.PropertyDiff.Kind[`${d.kind.toUpperCase()}${d.replace ? "_REPLACE" : ""}`]);
    // Compared with the inputs in state, so the CLI shows old and new inputs.
    entry.setInputdiff(true);
    detailed.set(path, entry);
  }
  return resp;
}

interface ProviderProto {
  DiffResponse: (new () => {
    setChanges(v: number): void;
    setReplacesList(v: string[]): void;
    setDeletebeforereplace(v: boolean): void;
    setDiffsList(v: string[]): void;
    setHasdetaileddiff(v: boolean): void;
    getDetaileddiffMap(): { set(k: string, v: unknown): void };
  }) & { DiffChanges: Record<"DIFF_SOME" | "DIFF_NONE", number> };
  PropertyDiff: (new () => { setKind(v: number | undefined): void; setInputdiff(v: boolean): void }) & {
    Kind: Record<string, number>;
  };
}

/** Patches the handlers of the provider service registered after this call. */
export function patchProviderServer(
  onConfigure: (config: ProviderConfig) => void,
  diff: DiffFunction,
  checkConfig: CheckProviderInputs,
): void {
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
          resp.setInputs(
            Struct.fromJavaScript(
              checkConfig(req.getOlds()?.toJavaScript() ?? {}, req.getNews()?.toJavaScript() ?? {}),
            ),
          );
        } catch (err) {
          return (callback as (err: unknown) => void)(err);
        }
        return (callback as (err: null, resp: unknown) => void)(null, resp);
      };
      impl.read = (call, callback) => {
        const req = call.request as ReadRequestLike;
        const undeclared = req.getInputs()?.toJavaScript()[UNDECLARED];
        if (undeclared !== undefined) {
          req.setProperties(
            Struct.fromJavaScript({ ...(req.getProperties()?.toJavaScript() ?? {}), [UNDECLARED]: undeclared }),
          );
        } else if (!req.getProperties()) req.setProperties(new Struct());
        return read(call, callback);
      };
      for (const action of ["create", "update", "delete"]) {
        const handler = impl[action]?.bind(impl);
        if (handler) impl[action] = timed(action, handler);
      }
      impl.diff = (call, callback) => {
        answerDiff(call.request as DiffRequestLike, diff).then(
          (resp) => (callback as Callback)(null, resp),
          (err: unknown) => (callback as Callback)(err),
        );
      };
    }
    return addService.call(this, service, implementation);
  };
}
