import { request } from "undici";
import type { Channel, Monitor, StatusPage, UpdateChannel, UpdateMonitor, UpdateStatusPage } from "../../api";

/**
 * Changes made behind Pulumi's back, through the server's REST API (not through the fault proxy):
 * to test that a program's refresh, drift detection or next `up` notices and repairs them.
 */
export interface Drift {
  patchMonitor(id: string, body: UpdateMonitor): Promise<Monitor>;
  pauseMonitor(id: string): Promise<Monitor>;
  resumeMonitor(id: string): Promise<Monitor>;
  deleteMonitor(id: string): Promise<void>;
  patchChannel(id: string, body: UpdateChannel): Promise<Channel>;
  deleteChannel(id: string): Promise<void>;
  patchStatusPage(id: string, body: UpdateStatusPage): Promise<StatusPage>;
  deleteStatusPage(id: string): Promise<void>;
}

/** Drift controls of the server at `url` with `apiKey`; a failed call throws the API's message. */
export function driftControls(url: string, apiKey: string): Drift {
  const call = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await request(`${url}${path}`, {
      method: method as "GET",
      headers: {
        authorization: `Bearer ${apiKey}`,
        ...(body === undefined ? {} : { "content-type": "application/json" }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = (await res.body.json()) as { ok: boolean; data?: T; error?: { code: string; message: string } };
    if (!answer.ok) throw new Error(`drift: ${method} ${path} failed: ${answer.error?.code}: ${answer.error?.message}`);
    return answer.data as T;
  };
  return {
    patchMonitor: (id, body) => call("PATCH", `/api/v1/monitors/${id}`, body),
    pauseMonitor: (id) => call("POST", `/api/v1/monitors/${id}/pause`),
    resumeMonitor: (id) => call("POST", `/api/v1/monitors/${id}/resume`),
    deleteMonitor: async (id) => void (await call("DELETE", `/api/v1/monitors/${id}`)),
    patchChannel: (id, body) => call("PATCH", `/api/v1/channels/${id}`, body),
    deleteChannel: async (id) => void (await call("DELETE", `/api/v1/channels/${id}`)),
    patchStatusPage: (id, body) => call("PATCH", `/api/v1/status-pages/${id}`, body),
    deleteStatusPage: async (id) => void (await call("DELETE", `/api/v1/status-pages/${id}`)),
  };
}
