import type { FastifyBaseLogger, FastifyServerOptions } from "fastify";

type Bindings = Parameters<FastifyBaseLogger["child"]>[0];
type ChildOptions = Parameters<FastifyBaseLogger["child"]>[1];
/** The levels that write a line (`silent` writes none). */
const LEVELS = ["fatal", "error", "warn", "info", "debug", "trace"] as const;
type Level = (typeof LEVELS)[number];
type LogMethod = (...args: unknown[]) => void;

/**
 * A request's logger, made the first time the request logs: most requests never log (successes
 * log at debug only), and making a pino child for each (its bindings turned into JSON) showed in
 * the profile of a GET. Lines carry the same `reqId` binding as Fastify's default child.
 */
class RequestLogger implements FastifyBaseLogger {
  #made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildOptions,
  ) {}

  private get made(): FastifyBaseLogger {
    return (this.#made ??= this.parent.child(this.bindings, this.options));
  }

  get level(): string {
    return this.#made?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.made.level = level;
  }

  declare fatal: LogMethod;
  declare error: LogMethod;
  declare warn: LogMethod;
  declare info: LogMethod;
  declare debug: LogMethod;
  declare trace: LogMethod;
  silent(): void {}

  // Methods on the prototype, not arrow-function fields: one logger is made per request, and
  // seven closures each time showed in the profile.
  static {
    for (const level of LEVELS) {
      RequestLogger.prototype[level] = function (this: RequestLogger, ...args: unknown[]): void {
        this.log(level, args);
      };
    }
  }

  child(bindings: Bindings, options?: ChildOptions): FastifyBaseLogger {
    return this.made.child(bindings, options);
  }

  private log(level: Level, args: unknown[]): void {
    (this.made[level] as (...a: unknown[]) => void)(...args);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger is made on its first line (see RequestLogger). */
export const requestLogger: NonNullable<FastifyServerOptions["childLoggerFactory"]> = (logger, bindings, options) =>
  new RequestLogger(logger, bindings, options);
