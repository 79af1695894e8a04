/**
 * Random faults on every request, drawn from a seeded generator (the same seed replays the same
 * storm): probabilities are per request, 0..1.
 */
export interface Storm {
  seed: number;
  /** A 502/503/500 answer; half of them after the server did the work (a lost response). */
  serverError: number;
  /** Starts a burst: this and the next `burstLength - 1` requests get a 429 with `Retry-After: 1`. */
  rateLimitBurst: number;
  burstLength: number;
  /** The connection is cut after the server did the work: the client never sees the answer. */
  resetAfterForward: number;
  /** Each request waits 0..maxLatencyMs before it is forwarded. */
  maxLatencyMs: number;
}

/** What the proxy did, per kind of fault. */
export interface StormCounts {
  requests: number;
  forwarded: number;
  serverErrors: number;
  serverErrorsAfterWork: number;
  rateLimited: number;
  resets: number;
}

/** What the storm does with one request. */
export interface Decision {
  kind: "forward" | "error-before" | "error-after" | "429" | "reset";
  latencyMs: number;
  status?: number;
}

/** Counts all at zero. */
export function emptyCounts(): StormCounts {
  return { requests: 0, forwarded: 0, serverErrors: 0, serverErrorsAfterWork: 0, rateLimited: 0, resets: 0 };
}

/** mulberry32: a tiny seeded generator, so a failing storm can be replayed. */
function generator(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A decider over the storm `current()` returns (none: every request is forwarded). */
export function stormDecider(current: () => Storm | undefined): () => Decision {
  let random: (() => number) | undefined;
  let seed: number | undefined;
  let burstLeft = 0;
  return () => {
    const storm = current();
    if (!storm) return { kind: "forward", latencyMs: 0 };
    if (seed !== storm.seed) [random, seed] = [generator(storm.seed), storm.seed];
    const r = random as () => number;
    const latencyMs = Math.floor(r() * storm.maxLatencyMs);
    if (burstLeft > 0) {
      burstLeft--;
      return { kind: "429", latencyMs };
    }
    const roll = r();
    let edge = storm.serverError;
    if (roll < edge) {
      return {
        kind: r() < 0.5 ? "error-before" : "error-after",
        latencyMs,
        status: [500, 502, 503][Math.floor(r() * 3)],
      };
    }
    if (roll < (edge += storm.rateLimitBurst)) {
      burstLeft = storm.burstLength - 1;
      return { kind: "429", latencyMs };
    }
    if (roll < (edge += storm.resetAfterForward)) return { kind: "reset", latencyMs };
    return { kind: "forward", latencyMs };
  };
}
