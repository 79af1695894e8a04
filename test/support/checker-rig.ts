import { afterAll, beforeAll, expect } from "vitest";
import { type Receiver, startReceiver } from "./receiver";
import type { ServerOptionsInput } from "../../server/index";
import { startServer, type TestServer } from "./server";

/** What a checker test works against; the fields are set once `beforeAll` has run. */
export interface CheckerRig<T extends { close(): Promise<void> }> {
  /** The server, its checker on, intervals down to 1 s, one quick notification retry. */
  server: TestServer;
  /** What the monitors probe: an HTTP target, a DNS or a TLS server. */
  target: T;
  /** A webhook receiver for the notifications. */
  receiver: Receiver;
  /** `server.call`, usable before the server has started (it is looked up at call time). */
  call: TestServer["call"];
  /** A monitor as the API reads it now. */
  monitor(id: string): Promise<Record<string, unknown> & { status: string; health: string }>;
  /**
   * Creates an http monitor of the target's `url`, checked every 2 s within 1 s, with `body` added
   * (channels, confirmations, …), and returns it as the create answered (expecting a 201).
   */
  probe(name: string, body?: Record<string, unknown>): Promise<Record<string, unknown> & { id: string }>;
}

/**
 * Starts a server with its checker, the target `start` makes and a webhook receiver before the
 * file's tests, and closes them after: the set-up every test of the real checker shares.
 */
export function useCheckerRig<T extends { close(): Promise<void> }>(
  start: () => Promise<T>,
  /** More server options (a metrics key, a location). */
  options: ServerOptionsInput = {},
): CheckerRig<T> {
  const rig = {
    call: (...args: Parameters<TestServer["call"]>) => rig.server.call(...args),
    monitor: async (id: string) => (await rig.server.call("GET", `/api/v1/monitors/${id}`)).body.data,
    probe: async (name: string, body: Record<string, unknown> = {}) => {
      const url = (rig.target as { url?: string }).url;
      const res = await rig.server.call("POST", "/api/v1/monitors", {
        name,
        type: "http",
        url,
        interval_sec: 2,
        timeout_sec: 1,
        ...body,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      return res.body.data;
    },
  } as CheckerRig<T>;
  beforeAll(async () => {
    rig.server = await startServer({ checker: true, minIntervalSec: 1, notifyRetryDelaysMs: [100], ...options });
    rig.target = await start();
    rig.receiver = await startReceiver();
  });
  afterAll(async () => {
    await rig.server?.close();
    await rig.target?.close();
    await rig.receiver?.close();
  });
  return rig;
}
