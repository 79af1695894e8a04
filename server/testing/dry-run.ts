import { request } from "undici";
import type { CreateMonitor, MonitorTestResult } from "../../api";

/**
 * The server's dry run, for a program's tests: one check now of a monitor spec (the API's create
 * body) or of a stored monitor's id, recorded nowhere. A refused spec throws the API's message,
 * which names each field.
 */
export type DryRun = (target: CreateMonitor | string) => Promise<MonitorTestResult>;

/** The dry run of the server at `url` with `apiKey`. */
export function dryRunControl(url: string, apiKey: string): DryRun {
  return async (target) => {
    const path =
      typeof target === "string" ? `/api/v1/monitors/${encodeURIComponent(target)}/test` : "/api/v1/monitors/test";
    const res = await request(`${url}${path}`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(typeof target === "string" ? {} : { "content-type": "application/json" }),
      },
      body: typeof target === "string" ? undefined : JSON.stringify(target),
    });
    const answer = (await res.body.json()) as {
      ok: boolean;
      data?: MonitorTestResult;
      error?: { code: string; message: string };
    };
    if (!answer.ok) throw new Error(`dry run: POST ${path} failed: ${answer.error?.code}: ${answer.error?.message}`);
    return answer.data as MonitorTestResult;
  };
}
