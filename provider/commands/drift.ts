import "../node-version";
import { type EngineEvent, LocalWorkspace, type OpType, type PulumiCommand } from "@pulumi/pulumi/automation";
import { specialSecretSig, specialSigKey } from "@pulumi/pulumi/runtime/rpc";
import { type Props, same } from "../kinds/values";
import { KINDS, type KindName } from "../kinds/registry";

/** One field that differs between the live service and the program. */
export interface DriftedField {
  field: string;
  /** The value read from the service (secrets read `[secret]`). */
  live: unknown;
  /** The value the program declares. */
  declared: unknown;
}

/** A resource whose live state differs from the program, and what `pulumi up` would do about it. */
export interface DriftedResource {
  urn: string;
  name: string;
  type: string;
  /** `update`, `replace`, or `create` (deleted outside Pulumi, or new in the program), `delete` (no longer declared). */
  action: OpType;
  /** For `create`: whether the stack's state has it (then it was deleted outside Pulumi), or the program only (not created yet). */
  inState?: boolean;
  fields: DriftedField[];
}

/** The drift of one stack. */
export interface DriftReport {
  stack: string;
  inSync: boolean;
  resources: DriftedResource[];
}

/** Which stack to check, and how to run the CLI. */
export interface DriftOptions {
  stackName: string;
  /** The Pulumi program's folder. */
  workDir: string;
  /** A specific CLI; by default `pulumi` from PATH. */
  pulumiCommand?: PulumiCommand;
  envVars?: Record<string, string>;
}

const CHANGES: readonly OpType[] = ["create", "update", "delete", "replace", "create-replacement", "delete-replaced"];
// Internal inputs (`__provider`, `__identity`, `__timeouts`, `__replaceOnChanges`, …) never count as drift.
const INTERNAL = new Set(["connection", "adopt"]);
/**
 * A secret as the engine serializes it: `{ [specialSigKey]: specialSecretSig, value }`. The key
 * alone also marks assets, archives and resource references, which are not secret.
 */
export const isSecret = (v: unknown): boolean =>
  typeof v === "object" && v !== null && (v as Record<string, unknown>)[specialSigKey] === specialSecretSig;
const visible = (inputs: Props) =>
  Object.fromEntries(
    Object.entries(inputs).filter(([k, v]) => !INTERNAL.has(k) && !k.startsWith("__") && !isSecret(v)),
  );

/**
 * The fields that differ, judged like the provider's diff (normal forms: sets, header case,
 * defaults). Secret fields are never shown; a change only they explain reads "(secret fields)".
 */
function driftedFields(type: string, id: string | undefined, live: Props, declared: Props): DriftedField[] {
  const kind = KINDS[/uptime:(\w+)$/.exec(type)?.[1] as KindName];
  const a = visible(live);
  const b = visible(declared);
  let fields: DriftedField[];
  if (kind) {
    const liveForm = kind.desired(a, id);
    const declaredForm = kind.desired(b, id);
    fields = Object.keys(declaredForm)
      .filter((f) => !same(liveForm[f], declaredForm[f]))
      .map((f) => ({ field: kind.propertyOf(f), live: liveForm[f], declared: declaredForm[f] }));
  } else {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    fields = keys.filter((k) => !same(a[k], b[k])).map((k) => ({ field: k, live: a[k], declared: b[k] }));
  }
  return fields.length ? fields : [{ field: "(secret fields)", live: "[secret]", declared: "[secret]" }];
}

/**
 * Runs a refresh preview (nothing is written) and reports, per resource, the fields where the
 * live service and the program disagree.
 */
export async function detectDrift(options: DriftOptions): Promise<DriftReport> {
  const stack = await LocalWorkspace.selectStack(
    { stackName: options.stackName, workDir: options.workDir },
    { pulumiCommand: options.pulumiCommand, envVars: options.envVars },
  );
  const byUrn = new Map<string, DriftedResource>();
  const inState = new Set(((await stack.exportStack()).deployment?.resources ?? []).map((r: { urn: string }) => r.urn));
  await stack.preview({
    refresh: true,
    onEvent: (event: EngineEvent) => {
      const meta = event.resourcePreEvent?.metadata;
      // The stack and Pulumi's own provider resources (whose inputs hold the stack config) are no objects of the service.
      if (
        !meta ||
        !CHANGES.includes(meta.op) ||
        meta.type === "pulumi:pulumi:Stack" ||
        meta.type.startsWith("pulumi:providers:")
      )
        return;
      const existing = byUrn.get(meta.urn);
      const action =
        existing && existing.action !== "create-replacement"
          ? existing.action
          : meta.op === "create-replacement"
            ? "replace"
            : meta.op;
      byUrn.set(meta.urn, {
        urn: meta.urn,
        name: meta.urn.split("::").pop() ?? meta.urn,
        type: meta.type.replace(/^pulumi-nodejs:dynamic\//, ""),
        action: action === "delete-replaced" ? "replace" : action,
        ...(action === "create" ? { inState: inState.has(meta.urn) } : {}),
        fields:
          existing?.fields.length || meta.op === "create" || meta.op === "delete"
            ? (existing?.fields ?? [])
            : driftedFields(meta.type, meta.old?.id, meta.old?.inputs ?? {}, meta.new?.inputs ?? {}),
      });
    },
  });
  const resources = [...byUrn.values()];
  return { stack: options.stackName, inSync: resources.length === 0, resources };
}

const show = (v: unknown) => (v === undefined ? "(none)" : JSON.stringify(v));

/** The report as text for a terminal or a CI log. */
export function formatDrift(report: DriftReport): string {
  if (report.inSync) return `Stack ${report.stack}: in sync with the live service.\n`;
  const lines = [`Stack ${report.stack}: ${report.resources.length} resource(s) drifted from the program:`];
  for (const r of report.resources) {
    const why =
      r.action !== "create"
        ? `\`pulumi up\` will ${r.action} it`
        : r.inState === false
          ? "not created yet (new in the program); `pulumi up` creates it"
          : "deleted outside Pulumi; `pulumi up` recreates it";
    lines.push(`  ${r.type} ${r.name}: ${why}`);
    for (const f of r.fields) lines.push(`    ${f.field}: live ${show(f.live)}, declared ${show(f.declared)}`);
  }
  return `${lines.join("\n")}\n`;
}
