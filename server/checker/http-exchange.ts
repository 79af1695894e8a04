import { type Dispatcher, request } from "undici";
import type { CheckTimings } from "../../api";
import type { ProbeContext } from "./probe";
import { timingsOf, withPhases } from "./timings";

/** One HTTP request of a check. */
export interface HttpRequestSpec {
  url: URL;
  method: string;
  headers: Record<string, string>;
  body: string | null;
  timeout_sec: number;
  follow_redirects: boolean;
}

/** What one request got back, as assertions and extractions read it. */
export interface HttpExchange {
  status_code: number;
  /** Header names lower-cased, repeats joined with ", ". */
  headers: Record<string, string>;
  /** The body up to the byte limit; null when it was not read. */
  body: string | null;
  response_time_ms: number;
  timings: CheckTimings;
}

/**
 * Sends one request through the context's dispatchers (the outbound policy applies) and reads the
 * response: the body only when `readLimit` is given, exactly up to that many bytes. `started` is the
 * check's start, from which the timings count. Throws what undici throws.
 */
export async function exchange(
  ctx: ProbeContext,
  req: HttpRequestSpec,
  started: number,
  readLimit?: number,
): Promise<HttpExchange> {
  const timeout = Math.max(1, Math.round(req.timeout_sec * 1000));
  const { result, phases } = withPhases(started, () =>
    request(req.url, {
      method: req.method as Dispatcher.HttpMethod,
      headers: { "user-agent": "pulumi-uptime-checker", ...req.headers },
      body: req.body ?? undefined,
      dispatcher: req.follow_redirects ? ctx.follow : ctx.direct,
      headersTimeout: timeout,
      bodyTimeout: timeout,
      signal: AbortSignal.timeout(timeout),
    }),
  );
  const res = await result;
  const firstByte = Math.round(performance.now() - started);
  let body: string | null = null;
  if (readLimit !== undefined) body = await readLimited(res.body, readLimit);
  else await res.body.dump();
  const total = Math.round(performance.now() - started);
  return {
    status_code: res.statusCode,
    headers: flatHeaders(res.headers),
    body,
    response_time_ms: total,
    timings: timingsOf(phases, firstByte, total),
  };
}

/** Response headers as assertions read them: names lower-cased, repeats joined. */
function flatHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers))
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

/** The body's first `limit` bytes: the chunk that crosses the limit is cut at it. */
async function readLimited(body: Dispatcher.ResponseData["body"], limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const bytes = chunk as Buffer;
    chunks.push(bytes.subarray(0, limit - size));
    size += Math.min(bytes.length, limit - size);
    if (size >= limit) {
      body.destroy();
      break;
    }
  }
  return Buffer.concat(chunks).toString("utf8");
}
