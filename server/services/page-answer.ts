import { createHash } from "node:crypto";

/** A page's answer as bytes, with what conditional requests compare. */
export interface PageAnswer {
  body: Buffer;
  /** A strong validator: the bytes' hash. */
  etag: string;
  /** When these bytes were first answered (an HTTP date). */
  lastModified: string;
}

/** The answer of `body`; `previous` (the answer it replaces) keeps its date when the bytes are the same. */
export function pageAnswer(body: string, now: number, previous?: PageAnswer): PageAnswer {
  const bytes = Buffer.from(body);
  const etag = `"${createHash("sha256").update(bytes).digest("base64url").slice(0, 27)}"`;
  return {
    body: bytes,
    etag,
    lastModified: previous?.etag === etag ? previous.lastModified : new Date(now).toUTCString(),
  };
}
