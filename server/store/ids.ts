import { randomBytes } from "node:crypto";

/** A new opaque id with its resource's prefix, e.g. `mon_3f9c…`. */
export function newId(prefix: "mon" | "chn" | "sp" | "hb" | "key" | "acc" | "inc" | "evt"): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}

/** RFC 3339 UTC with milliseconds. */
export const nowIso = (): string => new Date().toISOString();
