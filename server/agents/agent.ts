import { hostname } from "node:os";
import { randomBytes } from "node:crypto";
import { interceptors } from "undici";
import type { Lease, ResultsRequest } from "../../api";
import { CheckRunner } from "../checker/dispatch";
import { outboundAgent } from "../outbound";
import type { CheckOutcome } from "../store/heartbeats";
import { AgentCallError, AgentClient, AgentFatalError } from "./agent-client";

/** What `uptime-server agent` runs with. */
export interface AgentOptions {
  /** The server's base URL (`http://uptime.internal:8080`). */
  server: string;
  /** Reach the server through this unix socket instead of TCP (the URL still names the host). */
  socketPath?: string;
  /** The agent key (scope agent): it names the location. */
  key: string;
  /** The location this agent serves; must be its key's. */
  location: string;
  /** The agent's outbound policy: whether probes may reach private and loopback addresses. */
  allowPrivateTargets: boolean;
  /** Checks running at once (and leased at most). */
  concurrency: number;
  /** Results kept while the server cannot be reached; past it the oldest are dropped (and counted). */
  maxBuffered: number;
  /** The id sent with every call; default `<host>-<pid>-<random>`. */
  agentId?: string;
  /** The RDAP bootstrap file domain expiry checks use; IANA's when absent. */
  rdapBootstrapUrl?: string;
  /** How long a lease request waits on the server for a check to fall due (ms). */
  waitMs?: number;
  log?: (line: string) => void;
}

type Result = ResultsRequest["results"][number];

const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 30_000;
const BATCH = 500;

/**
 * A checker agent: leases the checks due at its location, runs them under its own outbound
 * policy, and posts the results. Results not yet delivered wait in memory (bounded) while the
 * server is away; calls are retried with exponential backoff and jitter, so a restarted server
 * gets every result once (a repeat is recorded once by its check key).
 */
export class CheckerAgent {
  readonly client: AgentClient;
  private readonly runner: CheckRunner;
  private readonly outbound;
  private readonly buffered: Result[] = [];
  private running = 0;
  private stopping = false;
  private wakeFlush?: () => void;
  /** Figures: checks run, results delivered, dropped (buffer full), refused by the server. */
  readonly counts = { checked: 0, delivered: 0, duplicates: 0, refused: 0, dropped: 0 };
  private loops: Promise<void>[] = [];

  constructor(private readonly options: AgentOptions) {
    const id = options.agentId ?? `${hostname()}-${process.pid}-${randomBytes(3).toString("hex")}`;
    this.client = new AgentClient(options.server, options.key, id, options.socketPath, options.allowPrivateTargets);
    this.outbound = outboundAgent(options.allowPrivateTargets);
    const follow = this.outbound.compose(interceptors.redirect({ maxRedirections: 5 }));
    // The server this agent reports to is out of its browser scripts' reach when it runs on this machine.
    const server = new URL(options.server);
    const serverPort = Number(server.port) || (server.protocol === "https:" ? 443 : 80);
    this.runner = new CheckRunner(undefined, {
      follow,
      direct: this.outbound,
      allowPrivate: options.allowPrivateTargets,
      rdapBootstrapUrl: options.rdapBootstrapUrl,
      ownPorts: () => [serverPort],
    });
  }

  /** Starts the lease and delivery loops; resolves at once. A fatal refusal (bad key) rejects `done`. */
  start(): { done: Promise<void> } {
    this.loops = [this.leaseLoop(), this.flushLoop()];
    return { done: Promise.all(this.loops).then(() => undefined) };
  }

  /** Stops leasing, lets the checks under way finish, delivers what it can within `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    this.stopping = true;
    const deadline = Date.now() + graceMs;
    while ((this.running > 0 || this.buffered.length > 0) && Date.now() < deadline) {
      this.wakeFlush?.();
      await sleep(50);
    }
    await Promise.allSettled(this.loops);
    await this.runner.close();
    await this.outbound.close();
    await this.client.close();
  }

  /** Results not delivered yet. */
  get pending(): number {
    return this.buffered.length;
  }

  private log(line: string): void {
    this.options.log?.(line);
  }

  private async leaseLoop(): Promise<void> {
    let failures = 0;
    while (!this.stopping) {
      const room = Math.min(this.options.concurrency - this.running, this.options.maxBuffered - this.buffered.length);
      if (room <= 0) {
        await sleep(20);
        continue;
      }
      try {
        const answer = await this.client.lease(room, this.options.waitMs ?? 5_000);
        if (answer.location !== this.options.location) {
          throw new AgentFatalError(`this key serves location ${answer.location}, not ${this.options.location}`);
        }
        if (failures > 0) this.log(`server reachable again after ${failures} failed calls`);
        failures = 0;
        for (const lease of answer.leases) this.run(lease);
      } catch (err) {
        if (err instanceof AgentFatalError) {
          this.stopping = true;
          throw err;
        }
        failures++;
        const wait = backoff(failures);
        if (failures === 1 || failures % 10 === 0)
          this.log(`lease failed (${(err as Error).message}); retrying in ${wait} ms`);
        await sleep(wait);
      }
    }
  }

  private run(lease: Lease): void {
    this.running++;
    const started = new Date().toISOString();
    void this.runner
      .run({ ...lease.monitor, account_id: "" })
      .catch((err: Error) => ({ up: false, response_time_ms: null, status_code: null, error: `agent: ${err.message}` }))
      .then((outcome) => {
        this.counts.checked++;
        if (outcome)
          this.keep({
            check_key: lease.check_key,
            started_at: started,
            checked_at: new Date().toISOString(),
            outcome: postable(outcome),
          });
      })
      .finally(() => {
        this.running--;
      });
  }

  private keep(result: Result): void {
    this.buffered.push(result);
    if (this.buffered.length > this.options.maxBuffered) {
      this.buffered.shift();
      this.counts.dropped++;
    }
    if (this.buffered.length >= BATCH) this.wakeFlush?.();
  }

  private async flushLoop(): Promise<void> {
    let failures = 0;
    while (!this.stopping || this.buffered.length > 0 || this.running > 0) {
      if (this.buffered.length === 0) {
        await new Promise<void>((resolve) => {
          this.wakeFlush = resolve;
          setTimeout(resolve, 100);
        });
        continue;
      }
      const batch = this.buffered.slice(0, BATCH);
      try {
        const answers = await this.client.results(batch);
        this.buffered.splice(0, batch.length);
        failures = 0;
        for (const a of answers) {
          if (a.status === "recorded") this.counts.delivered++;
          else if (a.status === "duplicate") this.counts.duplicates++;
          else this.counts.refused++;
        }
      } catch (err) {
        if (err instanceof AgentFatalError || (err instanceof AgentCallError && !err.retry)) {
          // Kept results the server will never take (a revoked key, a malformed batch) are dropped.
          this.log(`results refused: ${(err as Error).message}`);
          this.counts.dropped += batch.length;
          this.buffered.splice(0, batch.length);
          if (err instanceof AgentFatalError) return;
          continue;
        }
        failures++;
        if (this.stopping && failures > 3) return;
        const wait = backoff(failures);
        if (failures === 1 || failures % 10 === 0)
          this.log(
            `delivery failed (${(err as Error).message}); ${this.buffered.length} results kept; retrying in ${wait} ms`,
          );
        await sleep(wait);
      }
    }
  }
}

/** Exponential backoff with full jitter, capped. */
function backoff(failures: number): number {
  const cap = Math.min(BACKOFF_MAX_MS, BACKOFF_MIN_MS * 2 ** Math.min(failures - 1, 10));
  return Math.round(cap / 2 + Math.random() * (cap / 2));
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** An outcome as the results request carries it: a browser run's screenshot as base64. */
function postable(outcome: CheckOutcome): Result["outcome"] {
  const { screenshot, ...rest } = outcome;
  return { ...rest, ...(screenshot ? { screenshot_png: screenshot.toString("base64") } : {}) } as Result["outcome"];
}
