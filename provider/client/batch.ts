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

/** How long a write waits for others of its kind before its batch leaves, at least. */
export const BATCH_WAIT_MS = 5;
/**
 * How long a batch waits at most for the next write once its writes stop coming. The engine hands
 * writes over as fast as it records them: all at once when checkpoints are skipped, one per
 * checkpoint otherwise (each write of a stack of 1,000 waits for a snapshot of the whole state to
 * be written). A batch then waits for a pause a few times longer than the usual gap between writes
 * (see `quietMs`): the engine has handed over what it runs at once, and every write of a stack
 * shares requests in either mode.
 */
export const BATCH_QUIET_MAX_MS = 1_000;
/** How long the first write of a batch waits at most, however steadily others keep coming. */
export const BATCH_HOLD_MAX_MS = 3_000;
/**
 * The most a batch waits for the key's pace. Batches of a kind leave no faster than the key's
 * rate-limit window affords (`UptimeClient.pace`: about 100 ms at 600 requests a minute): writes
 * that trickle in, as the engine hands them over while the program registers its resources, then
 * share requests instead of spending the window one write at a time and waiting for the next.
 */
export const BATCH_MAX_WAIT_MS = 250;
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

type ItemAnswer = {
  status: number;
  ok: boolean;
  data?: unknown;
  replayed?: boolean;
  error?: { code: string; message: string; details?: []; request_id?: string };
};

/** The writes of one collection waiting for a batch, and the batches under way. */
interface Lane {
  queue: Queued[];
  inFlight: number;
  timer?: ReturnType<typeof setTimeout>;
  /** When the lane's last batch left (ms). */
  sentAt: number;
  /** When the last write joined the queue, when the first of the queue did, and when the last batch came back (ms). */
  lastAt: number;
  firstAt: number;
  returnedAt: number;
  /**
   * The usual time the engine takes to hand over the next write (ms, a moving average): from the
   * last write, or from the last batch's answers if they came later (time the engine spent waiting
   * for a batch is not its own).
   */
  gapMs: number;
}

/**
 * Batches of one collection under way at once. Writes that come while they are (or while they wait
 * for the rate limit) gather for the next batch: resources that trickle in one at a time, as
 * updates do while the program registers them, still share requests.
 */
export const BATCHES_IN_FLIGHT = 2;

const lanes = new WeakMap<UptimeClient, Map<string, Lane>>();

function laneOf(client: UptimeClient, path: string): Lane {
  let byPath = lanes.get(client);
  if (!byPath) lanes.set(client, (byPath = new Map()));
  let lane = byPath.get(path);
  if (!lane)
    byPath.set(path, (lane = { queue: [], inFlight: 0, sentAt: 0, lastAt: 0, firstAt: 0, returnedAt: 0, gapMs: 0 }));
  return lane;
}

/** Sends `write` to the collection `path`: in a batch when the server has them, else alone. */
export async function write<T>(client: UptimeClient, path: string, w: Write): Promise<ApiResult<T>> {
  if (!(await hasBatch(client, path))) return single<T>(client, path, w);
  const deadline = currentDeadline()?.endsAt;
  const answer = new Promise<ApiResult<T>>((resolve, reject) => {
    const lane = laneOf(client, path);
    joined(lane);
    lane.queue.push({ write: w, deadline, resolve: resolve as Queued["resolve"], reject });
    if (lane.queue.length >= BATCH_MAX) flush(client, path, lane);
    else if (lane.inFlight < BATCHES_IN_FLIGHT) schedule(client, path, lane);
  });
  // The batch runs on without this write's limit (see flush); the write still ends at its own.
  const call = w.op === "create" ? `POST ${path}` : `${w.op === "update" ? "PATCH" : "DELETE"} ${path}/${w.id}`;
  return within(answer, `waiting for the answer to ${call} (in a batch)`);
}

/** Notes a write joining the lane, and the engine's time to hand it over (see `Lane.gapMs`). */
function joined(lane: Lane): void {
  const now = Date.now();
  // A write after a longer pause starts a new burst: the pause says nothing of the engine's pace.
  const gap = now - Math.max(lane.lastAt, lane.returnedAt);
  if (lane.lastAt > 0 && gap < BATCH_QUIET_MAX_MS) lane.gapMs = lane.gapMs === 0 ? gap : 0.8 * lane.gapMs + 0.2 * gap;
  if (lane.queue.length === 0) lane.firstAt = now;
  lane.lastAt = now;
}

/** How long the lane waits for one more write: a few usual gaps, within BATCH_WAIT_MS..BATCH_QUIET_MAX_MS. */
const quietMs = (lane: Lane) => Math.min(BATCH_QUIET_MAX_MS, Math.max(BATCH_WAIT_MS, 3 * lane.gapMs));

/**
 * (Re)sends the lane's batch after the wait: once no write joined for `quietMs` (and at most
 * BATCH_HOLD_MAX_MS after the first), and no sooner than the key's pace after the last batch.
 */
function schedule(client: UptimeClient, path: string, lane: Lane): void {
  clearTimeout(lane.timer);
  const now = Date.now();
  const quiet = Math.min(lane.lastAt + quietMs(lane), lane.firstAt + BATCH_HOLD_MAX_MS);
  const paced = lane.sentAt + Math.min(client.pace(), BATCH_MAX_WAIT_MS);
  const wait = Math.max(BATCH_WAIT_MS, quiet - now, paced - now);
  lane.timer = outsideDeadline(() => setTimeout(() => flush(client, path, lane), wait));
}

/** The single call of a write. */
function single<T>(client: UptimeClient, path: string, w: Write): Promise<ApiResult<T>> {
  if (w.op === "create") return client.request<T>("POST", path, { body: w.body, idempotencyKey: w.idempotencyKey });
  if (w.op === "update") return client.request<T>("PATCH", `${path}/${w.id}`, { body: w.body });
  return client.request<T>("DELETE", `${path}/${w.id}`);
}

/**
 * Sends up to 100 queued writes, unless enough batches are under way: the end of one schedules the
 * rest (sent at once when they fill a batch).
 */
function flush(client: UptimeClient, path: string, lane: Lane): void {
  clearTimeout(lane.timer);
  lane.timer = undefined;
  if (lane.queue.length === 0 || lane.inFlight >= BATCHES_IN_FLIGHT) return;
  const queued = lane.queue.splice(0, BATCH_MAX);
  lane.inFlight++;
  lane.sentAt = Date.now();
  outsideDeadline(
    () =>
      void send(client, path, queued).finally(() => {
        lane.inFlight--;
        lane.returnedAt = Date.now();
        if (lane.queue.length >= BATCH_MAX) flush(client, path, lane);
        else if (lane.queue.length > 0 && !lane.timer) schedule(client, path, lane);
      }),
  );
}

/** Whether the write's own limit is spent: its caller already has its timeout error (see `write`). */
const givenUp = (q: Queued) => q.deadline !== undefined && Date.now() >= q.deadline;

async function send(client: UptimeClient, path: string, all: Queued[]): Promise<void> {
  // A write whose caller gave up is not sent: nothing may change after its resource failed.
  const queued = all.filter((q) => !givenUp(q));
  if (queued.length === 0) return;
  const items = queued.map(({ write: w }) =>
    w.op === "create"
      ? { op: w.op, idempotency_key: w.idempotencyKey, body: w.body }
      : w.op === "update"
        ? { op: w.op, id: w.id, body: w.body }
        : { op: w.op, id: w.id },
  );
  const deadlines = queued.map((q) => q.deadline).filter((d): d is number => d !== undefined);
  let answers: ItemAnswer[];
  try {
    // Every item is safe to send again: creates carry their key, updates and deletes are idempotent.
    // The batch waits for the rate limit as long as one of its writes may.
    const res = await client.request<{ items: ItemAnswer[] }>("POST", `${path}/batch`, {
      body: { items },
      idempotent: true,
      deadline: deadlines.length === queued.length ? Math.max(...deadlines) : undefined,
    });
    answers = res.data.items;
  } catch (err) {
    // A write past its limit has its caller's timeout error already, which names the limit.
    for (const q of queued) if (!givenUp(q)) q.reject(err);
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
