import { AsyncLocalStorage } from "node:async_hooks";
import diagnostics from "node:diagnostics_channel";
import type { Socket } from "node:net";
import type { CheckTimings } from "../../api";

/** What one check saw of its connection, in ms from the check's start. */
interface Phases {
  started: number;
  connectStart?: number;
  lookedUp?: number;
  tcp?: number;
  connected?: number;
  secure: boolean;
}

const current = new AsyncLocalStorage<Phases>();
let subscribed = false;

/**
 * Follows the connection a check opens through undici's and Node's diagnostics channels: a
 * request runs inside its own async context, so the events of the connection it opens land on
 * it. A check that reuses a pooled connection opens none: its DNS, connect and TLS phases are 0.
 */
function subscribe(): void {
  if (subscribed) return;
  subscribed = true;
  diagnostics.subscribe("undici:client:beforeConnect", (message) => {
    const phases = current.getStore();
    if (!phases) return;
    phases.connectStart = performance.now();
    phases.secure = (message as { connectParams: { protocol: string } }).connectParams.protocol === "https:";
  });
  // Plain TCP sockets (http://) are created through net.connect, which announces them.
  diagnostics.subscribe("net.client.socket", (message) => {
    const phases = current.getStore();
    if (!phases || phases.connectStart === undefined) return;
    const socket = (message as { socket: Socket }).socket;
    socket.once("lookup", () => (phases.lookedUp = performance.now()));
    socket.once("connect", () => (phases.tcp = performance.now()));
  });
  diagnostics.subscribe("undici:client:connected", () => {
    const phases = current.getStore();
    if (phases?.connectStart !== undefined) phases.connected = performance.now();
  });
}

/** Runs `fn` (one HTTP check) while recording the phases of the connection it opens. */
export function withPhases<T>(started: number, fn: () => Promise<T>): { result: Promise<T>; phases: Phases } {
  subscribe();
  const phases: Phases = { started, secure: false };
  return { result: current.run(phases, fn), phases };
}

/**
 * The check's timings: `first_byte_ms` and `total_ms` always; for a new connection, `connect_ms`
 * (http: DNS and TCP split out as `dns_ms` and `connect_ms`; https: from the start of the
 * connection to the end of the TLS handshake, DNS and TCP included, as `tls_ms` with the two
 * others null, since the TLS socket is not announced before it is secure); 0 for a reused one.
 */
export function timingsOf(p: Phases, firstByte: number, total: number): CheckTimings {
  const ms = (from: number | undefined, to: number | undefined) =>
    from === undefined || to === undefined ? null : Math.round(to - from);
  const base = { first_byte_ms: firstByte, total_ms: total };
  if (p.connectStart === undefined) return { dns_ms: 0, connect_ms: 0, tls_ms: 0, ...base };
  if (p.secure) return { dns_ms: null, connect_ms: null, tls_ms: ms(p.connectStart, p.connected), ...base };
  return {
    dns_ms: ms(p.connectStart, p.lookedUp) ?? 0,
    connect_ms: ms(p.lookedUp ?? p.connectStart, p.tcp),
    tls_ms: null,
    ...base,
  };
}
