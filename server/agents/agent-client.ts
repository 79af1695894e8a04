import { Agent, type Dispatcher, request } from "undici";
import { browserCapability } from "../checker/browser/run";
import type { Leases, ResultsRequest, ResultStatus } from "../../api";

/** A refusal the agent cannot retry its way out of (a revoked key, a key of another location). */
export class AgentFatalError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AgentFatalError";
  }
}

/** The server's answer was not a success; `retry` when waiting may help (5xx, 429, a network error). */
export class AgentCallError extends Error {
  constructor(
    message: string,
    readonly retry: boolean,
  ) {
    super(message);
    this.name = "AgentCallError";
  }
}

/**
 * The agent's side of the agent API over one kept-alive connection pool. The server's address is
 * the agent's own business (often private): it is not subject to the probes' outbound policy.
 */
export class AgentClient {
  private readonly dispatcher: Dispatcher;
  private readonly base: URL;

  constructor(
    server: string,
    private readonly key: string,
    readonly agentId: string,
    socketPath?: string,
    /** The agent's outbound policy, told to the server with every lease request. */
    private readonly allowPrivateTargets = false,
  ) {
    this.base = new URL(server);
    this.dispatcher = new Agent({ keepAliveTimeout: 60_000, connect: socketPath ? { socketPath } : undefined });
  }

  /** Leases up to `max` checks; the server waits up to `waitMs` when none is due. */
  lease(max: number, waitMs: number): Promise<Leases> {
    return this.post<Leases>(
      "/api/v1/agent/leases",
      {
        agent_id: this.agentId,
        max,
        wait_ms: waitMs,
        allow_private_targets: this.allowPrivateTargets,
        browser: browserCapability().ok,
      },
      waitMs + 15_000,
    );
  }

  /** Posts results; the server answers each (recorded, duplicate or refused). */
  async results(results: ResultsRequest["results"]): Promise<ResultStatus[]> {
    return (
      await this.post<{ results: ResultStatus[] }>("/api/v1/agent/results", { agent_id: this.agentId, results }, 30_000)
    ).results;
  }

  close(): Promise<void> {
    return this.dispatcher.close();
  }

  private async post<T>(path: string, body: object, timeoutMs: number): Promise<T> {
    let res: Dispatcher.ResponseData;
    try {
      res = await request(new URL(path, this.base), {
        method: "POST",
        dispatcher: this.dispatcher,
        headers: { authorization: `Bearer ${this.key}`, "content-type": "application/json" },
        body: JSON.stringify(body),
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
    } catch (err) {
      throw new AgentCallError(`server unreachable: ${(err as Error).message}`, true);
    }
    const text = await res.body.text();
    const parsed = safeJson(text) as
      { ok?: boolean; data?: T; error?: { code?: string; message?: string } } | undefined;
    if (res.statusCode === 200 && parsed?.ok) return parsed.data as T;
    const message =
      `${path}: HTTP ${res.statusCode} ${parsed?.error?.code ?? ""} ${parsed?.error?.message ?? ""}`.trim();
    if (res.statusCode === 401 || res.statusCode === 403) throw new AgentFatalError(message);
    throw new AgentCallError(message, res.statusCode >= 500 || res.statusCode === 429 || res.statusCode === 408);
  }
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
