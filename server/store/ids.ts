import { randomBytes } from "node:crypto";

let lastMs = 0;
let sequence = 0;

/** The prefix of each kind's ids. */
export type IdPrefix = "mon" | "chn" | "sp" | "hb" | "key" | "acc" | "inc" | "evt" | "mw" | "spi" | "spu" | "sub";

/**
 * A new opaque id with its resource's prefix, e.g. `mon_019a…`. Ids grow with creation time
 * (milliseconds, then a per-process sequence), so "creation time, then id" is creation order
 * even for objects created within the same millisecond.
 */
export function newId(prefix: IdPrefix): string {
  const ms = Date.now();
  sequence = ms === lastMs ? sequence + 1 : 0;
  lastMs = ms;
  const time = ms.toString(16).padStart(12, "0");
  const seq = (sequence & 0xffff).toString(16).padStart(4, "0");
  return `${prefix}_${time}${seq}${randomBytes(6).toString("hex")}`;
}

/** RFC 3339 UTC with milliseconds. */
export const nowIso = (): string => new Date().toISOString();
