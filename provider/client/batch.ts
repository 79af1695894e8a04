/**
 * Batched writes: the creates, updates and deletes of one kind that resources ask for at about
 * the same time go to the server as one `POST <collection>/batch` (an extension its OpenAPI
 * document names), which counts once against the API key's rate limit. Each caller still gets
 * its own answer or error, exactly as from its single call; a server without the extension gets
 * the single calls.
 */
import type { ApiResult, UptimeClient } from "./client";
import { currentDeadline, outsideDeadline, within } from "./deadline";
import { UptimeApiError } from "./errors";
import { hasBatch } from "./extensions";

/** How long a write waits for others of its kind before its batch leaves. */
export const BATCH_WAIT_MS = 5;
/** Most writes in one batch (the server's limit). */
export const BATCH_MAX = 100;

/** One write: what the single call would send. */
export type Write =
  | { op: "create"; body: unknown; idempotencyKey: string }
  | { op: "update"; id: string; body: unknown }
  | { op: "delete"; id: string };

interface Queued {
  write: Write;
  deadline?: number;
  resolve: (answer: ApiResult<unknown>) => void;
  reject: (err: unknown) => void;
}

type ItemAnswer = { status: number; ok: boolean; data?: unknown; replayed?: boolean; error?: { code: string; message: string; details?: []; request_id?: string } };

const queues = new WeakMap<UptimeClient, Map<string, Queued[]>>();

/** Sends `write` to the collection `path`: in a batch when the server has them, else alone. */
export async function write<T>(client: UptimeClient, path: string, w: Write): Promise<ApiResult<T>> {
  if (!(await hasBatch(client, path))) return single<T>(client, path, w);
  const deadline = currentDeadline()?.endsAt;
  const answer = new Promise<ApiResult<T>>((resolve, reject) => {
    let byPath = queues.get(client);
    if (!byPath) queues.set(client, (byPath = new Map()));
    let queue = byPath.get(path);
    if (!queue) {
      byPath.set(path, (queue = []));
      outsideDeadline(() => setTimeout(() => flush(client, path), BATCH_WAIT_MS));
    }
    queue.push({ write: w, deadline, resolve: resolve as Queued["resolve"], reject });
    if (queue.length >= BATCH_MAX) flush(client, path);
  });
  // The batch runs on without this write's limit (see flush); the write still ends at its own.
  return within(answer, `waiting for the batched ${w.op} of ${path}`);
}

/** The single call of a write. */
function single<T>(client: UptimeClient, path: string, w: Write): Promise<ApiResult<T>> {
  if (w.op === "create") return client.request<T>("POST", path, { body: w.body, idempotencyKey: w.idempotencyKey });
  if (w.op === "update") return client.request<T>("PATCH", `${path}/${w.id}`, { body: w.body });
  return client.request<T>("DELETE", `${path}/${w.id}`);
}

/** Sends what the queue of `path` holds (a later write starts a new queue). */
function flush(client: UptimeClient, path: string): void {
  const byPath = queues.get(client);
  const queued = byPath?.get(path);
  if (!queued || queued.length === 0) return;
  byPath?.delete(path);
  outsideDeadline(() => void send(client, path, queued));
}

async function send(client: UptimeClient, path: string, queued: Queued[]): Promise<void> {
  const items = queued.map(({ write: w }) =>
    w.op === "create" ? { op: w.op, idempotency_key: w.idempotencyKey, body: w.body } : w.op === "update" ? { op: w.op, id: w.id, body: w.body } : { op: w.op, id: w.id },
  );
  const deadlines = queued.map((q) => q.deadline).filter((d): d is number => d !== undefined);
  let answers: ItemAnswer[];
  try {
    // Every item is safe to send again: creates carry their key, updates and deletes are idempotent.
    const res = await client.request<{ items: ItemAnswer[] }>("POST", `${path}/batch`, {
      body: { items },
      idempotent: true,
      deadline: deadlines.length === queued.length ? Math.min(...deadlines) : undefined,
    });
    answers = res.data.items;
  } catch (err) {
    for (const q of queued) q.reject(err);
    return;
  }
  queued.forEach((q, i) => settle(client, path, q, answers[i]));
}

/** One caller's answer, as its single call would have given it. */
function settle(client: UptimeClient, path: string, q: Queued, answer: ItemAnswer | undefined): void {
  if (answer?.ok === true) return q.resolve({ data: answer.data, replayed: answer.replayed === true });
  const e = answer?.error;
  // The first request with this key still runs (a retry of this write): the single call waits for it.
  const keyBusy = answer?.status === 409 && e?.details?.some((d: { field?: string }) => d.field === "Idempotency-Key");
  if (keyBusy || !e) return void single(client, path, q.write).then(q.resolve, q.reject);
  q.reject(new UptimeApiError(e.code, answer.status, e.message, e.details ?? [], e.request_id));
}
