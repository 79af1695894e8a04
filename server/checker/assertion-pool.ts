import { join } from "node:path";
import { Piscina } from "piscina";
import type { StoredAssertion } from "../../api";
import { type AssertionOutcome, evaluateAssertions, type ResponseFacts } from "./evaluate-worker";

/**
 * The worker's file: beside this one once built; from the build (`npm run build`) when this
 * module runs as TypeScript under the test runner, since a worker thread loads plain JavaScript.
 */
function workerFile(): string {
  return __filename.endsWith(".ts")
    ? join(__dirname, "../../dist/server/checker/evaluate-worker.js")
    : join(__dirname, "evaluate-worker.js");
}

/** How long the assertions of one response may take before they fail (and their worker is ended). */
export const EVALUATION_BUDGET_MS = 2_000;

/**
 * Judges responses against assertions. Those that read no body are judged at once; those that
 * do (JSON parsing, regular expressions over up to 1 MiB) go to a worker thread under a time
 * budget, so the event loop, and with it every other check's schedule, never waits for them.
 */
export class AssertionEvaluator {
  private pool?: Piscina;

  constructor(private readonly budgetMs = EVALUATION_BUDGET_MS) {}

  /** The outcome of each assertion, in order; never rejects. */
  async evaluate(assertions: readonly StoredAssertion[], facts: ResponseFacts): Promise<AssertionOutcome[]> {
    if (assertions.length === 0) return [];
    if (!assertions.some((a) => a.source === "json_body" || a.source === "text_body"))
      return evaluateAssertions(assertions, facts);
    try {
      return (await this.workers().run(
        { assertions, facts },
        { name: "evaluateTask", signal: AbortSignal.timeout(this.budgetMs) },
      )) as AssertionOutcome[];
    } catch (err) {
      const timedOut = (err as Error).name === "AbortError" || (err as Error).name === "TimeoutError";
      const reason = timedOut
        ? `judging took longer than ${this.budgetMs} ms`
        : `could not be judged: ${(err as Error).message}`;
      return assertions.map((a) => ({ ...a, actual: null, pass: false, reason }));
    }
  }

  /** Ends the worker threads. */
  async close(): Promise<void> {
    await this.pool?.destroy();
    this.pool = undefined;
  }

  private workers(): Piscina {
    this.pool ??= new Piscina({
      filename: workerFile(),
      minThreads: 0,
      maxThreads: 2,
      idleTimeout: 30_000,
    });
    return this.pool;
  }
}
