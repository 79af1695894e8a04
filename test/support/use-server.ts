/**
 * A reference server for the tests of a `describe` block (or a file), as its hooks: `useServer`
 * registers a `beforeAll` that starts it and an `afterAll` that closes it, and returns a stand-in
 * at once that forwards every property and method to the server once it runs, so the block can
 * name it (`const s = useServer()`) and its tests and later hooks use it as the server itself.
 * `useStarted` does the same for anything else a block starts and closes (a target, a receiver).
 */
import { afterAll, beforeAll } from "vitest";
import type { ServerOptionsInput } from "../../server/index";
import { type FaultProxy, startFaultProxy } from "./fault-proxy";
import { startServer, type TestServer } from "./server";

/**
 * A stand-in for an object a `beforeAll` makes: reads, writes and method calls go to the object
 * `current()` returns; before there is one they throw, naming `what`.
 */
export function standIn<T extends object>(what: string, current: () => T | undefined): T {
  const real = (prop: string | symbol): T => {
    const value = current();
    if (value === undefined)
      throw new Error(`${what} is made in a beforeAll: use it in a test or a later hook (read .${String(prop)})`);
    return value;
  };
  return new Proxy({} as T, {
    get(_, prop) {
      // Not a promise: `await` and Vitest's formatting look for `then` before the object exists.
      if (prop === "then" && current() === undefined) return undefined;
      const target = real(prop);
      const value: unknown = Reflect.get(target, prop, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
    set: (_, prop, value) => Reflect.set(real(prop), prop, value),
    has: (_, prop) => Reflect.has(real(prop), prop),
  });
}

/**
 * A reference server (`startServer`: a dev key, private targets allowed, the checker off unless
 * `options` turn it on) started before the block's tests and closed after them. `options` may be a
 * function, read when the server starts (for a URL of a target an earlier `beforeAll` started).
 */
export function useServer(options: ServerOptionsInput | (() => ServerOptionsInput) = {}): TestServer {
  return useStarted("the server of useServer()", () =>
    startServer(typeof options === "function" ? options() : options),
  );
}

/** A fault proxy in front of `server` (a `useServer` stand-in), started after it and closed before it. */
export function useFaultProxy(server: TestServer): FaultProxy {
  return useStarted("the proxy of useFaultProxy()", () => startFaultProxy(server.url));
}

/**
 * Anything that is started and closed (a target, a receiver, a mail server), as hooks of the block:
 * `start` runs in a `beforeAll`, `close` in an `afterAll`; answers a stand-in (see `standIn`) named `what`.
 */
export function useStarted<T extends { close(): unknown }>(what: string, start: () => Promise<T>): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.close();
  });
  return standIn(what, () => started);
}
