import { createServer, type IncomingHttpHeaders, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import {
  discordProblems,
  opsgenieCreateProblems,
  pagerDutyProblems,
  teamsProblems,
  telegramProblems,
} from "./vendor-checks";

/** The vendors a receiver stands in for. */
export type Vendor = "pagerduty" | "opsgenie" | "teams" | "discord" | "telegram";

/** One request a vendor would have got, and how the receiver answered it. */
export interface VendorRequest {
  vendor: Vendor | "unknown";
  method: string;
  /** The path and query (a Telegram path holds the bot token: compare, do not print). */
  path: string;
  headers: IncomingHttpHeaders;
  /** The parsed JSON body (undefined when it was not JSON). */
  body: unknown;
  status: number;
  /** When it was recorded (ms since the epoch). */
  at: number;
  /** Why the receiver refused it, as the vendor would have said. */
  problems: string[];
}

/** An answer the receiver gives instead of checking, to play a vendor's refusal or outage. */
export interface VendorAnswer {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

/** A local stand-in for PagerDuty, Opsgenie, Teams, Discord and Telegram. */
export interface VendorReceiver {
  /** Base URL: `api_url` of pagerduty, opsgenie and telegram channels. */
  url: string;
  /** A Teams workflow URL (with a `sig` token) and a Discord webhook URL on this receiver. */
  teamsUrl: string;
  discordUrl: string;
  /** Every request, in order. */
  received: VendorRequest[];
  /** Requests one vendor got, in order. */
  of(vendor: Vendor): VendorRequest[];
  /** Answers the next `times` requests for `vendor` with `answer` (default 1). */
  answerNext(vendor: Vendor, answer: VendorAnswer, times?: number): void;
  /**
   * Holds the next request for `vendor` unanswered until `release()`: a slow vendor. It is judged
   * and recorded when released, as a vendor takes an event when it accepts it; `arrived` resolves
   * when it came in.
   */
  holdNext(vendor: Vendor): { arrived: Promise<void>; release(): void };
  /** Resolves when `vendor` has got `count` requests (rejects after `timeoutMs`). */
  waitFor(vendor: Vendor, count: number, timeoutMs?: number): Promise<VendorRequest[]>;
  close(): Promise<void>;
}

/** Which vendor a request is for, from its path. */
function vendorOf(method: string, path: string): Vendor | "unknown" {
  if (method !== "POST") return "unknown";
  if (path === "/v2/enqueue") return "pagerduty";
  if (/^\/v2\/alerts(\/[^/]+\/close)?(\?|$)/.test(path)) return "opsgenie";
  if (path.startsWith("/workflows/")) return "teams";
  if (path.startsWith("/api/webhooks/")) return "discord";
  if (/^\/bot[^/]+\/sendMessage$/.test(path)) return "telegram";
  return "unknown";
}

/** How the receiver answers: the vendor's status and body, and why it refused (empty: accepted). */
interface Judgement {
  status: number;
  body: unknown;
  problems: string[];
}

/** The refusal built from `problems` when there are any, else the acceptance. */
function answer(
  problems: string[],
  refused: (problems: string[]) => { status: number; body: unknown },
  accepted: () => { status: number; body: unknown },
): Judgement {
  return { ...(problems.length ? refused(problems) : accepted()), problems };
}

/** The vendor's answer to a request it accepts, or to one it refuses (with the vendor's status and shape). */
function judge(vendor: Vendor, path: string, headers: IncomingHttpHeaders, body: unknown): Judgement {
  const json = (headers["content-type"] ?? "").startsWith("application/json");
  const notJson = ["Content-Type must be application/json"];
  switch (vendor) {
    case "pagerduty":
      return answer(
        json ? pagerDutyProblems(body) : notJson,
        (errors) => ({ status: 400, body: { status: "invalid event", message: "Event object is invalid", errors } }),
        () => ({
          status: 202,
          body: {
            status: "success",
            message: "Event processed",
            dedup_key: (body as { dedup_key?: string }).dedup_key,
          },
        }),
      );
    case "opsgenie": {
      if (!/^GenieKey [A-Za-z0-9-]{8,128}$/.test(headers.authorization ?? "")) {
        return {
          status: 401,
          problems: ["Could not authenticate"],
          body: { message: "Could not authenticate", took: 0, requestId: "r" },
        };
      }
      const closing = path.includes("/close");
      const problems = !json
        ? notJson
        : closing
          ? /[?&]identifierType=alias(&|$)/.test(path)
            ? []
            : ["identifierType=alias expected"]
          : opsgenieCreateProblems(body);
      // Opsgenie refuses an invalid body with 422 (its documented validation status).
      return answer(
        problems,
        (refused) => ({
          status: 422,
          body: {
            message: "Request body is not processable. Please check the errors.",
            errors: { message: refused.join(" ") },
            took: 0,
            requestId: "r",
          },
        }),
        () => ({ status: 202, body: { result: "Request will be processed", took: 0.01, requestId: "r" } }),
      );
    }
    case "teams":
      return answer(
        json ? teamsProblems(body) : notJson,
        (refused) => ({ status: 400, body: { error: { code: "InvalidRequestContent", message: refused.join("; ") } } }),
        () => ({ status: 202, body: undefined }),
      );
    case "discord":
      return answer(
        json ? discordProblems(body) : ["Cannot send an empty message"],
        (errors) => ({ status: 400, body: { message: "Invalid Form Body", code: 50035, errors } }),
        () => ({ status: 204, body: undefined }),
      );
    case "telegram":
      return answer(
        json ? telegramProblems(body) : ["Bad Request: message text is empty"],
        (refused) => ({ status: 400, body: { ok: false, error_code: 400, description: refused[0] } }),
        () => {
          const { chat_id: chat, text } = body as { chat_id: unknown; text: string };
          return { status: 200, body: { ok: true, result: { message_id: 1, chat: { id: chat }, text } } };
        },
      );
  }
}

function send(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (body === undefined) return void res.writeHead(status, headers).end();
  res.writeHead(status, { "content-type": "application/json", ...headers }).end(JSON.stringify(body));
}

/**
 * Starts a receiver on a loopback port that stands in for the vendors: it checks each request
 * against the vendor's documented payload and headers, records it, and answers as the vendor
 * would (400/422 with the vendor's error shape for a malformed one). Point channels at it with
 * `api_url` (PagerDuty, Opsgenie, Telegram) or `teamsUrl` / `discordUrl`.
 */
export async function startVendorReceiver(): Promise<VendorReceiver> {
  const received: VendorRequest[] = [];
  const scripted = new Map<Vendor, VendorAnswer[]>();
  const waiters = new Set<() => void>();
  const holds = new Map<Vendor, { arrive(answer: () => void): void }[]>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const method = req.method ?? "";
      const path = req.url ?? "/";
      const raw = Buffer.concat(chunks).toString("utf8");
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        body = undefined;
      }
      const vendor = vendorOf(method, path);
      const hold = vendor === "unknown" ? undefined : holds.get(vendor)?.shift();
      if (hold) return void hold.arrive(() => answer(vendor as Vendor, method, path, body));
      answer(vendor, method, path, body);
    });
    function answer(vendor: Vendor | "unknown", method: string, path: string, body: unknown): void {
      const record = (status: number, problems: string[]) =>
        received.push({ vendor, method, path, headers: req.headers, body, status, at: Date.now(), problems });
      if (vendor === "unknown") {
        record(404, ["no vendor endpoint here"]);
        send(res, 404, { message: "Not Found" });
      } else {
        const next = scripted.get(vendor)?.shift();
        if (next) {
          record(next.status, []);
          send(res, next.status, next.body, next.headers);
        } else {
          const verdict = judge(vendor, path, req.headers, body);
          record(verdict.status, verdict.problems);
          send(res, verdict.status, verdict.body);
        }
      }
      for (const w of waiters) w();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const of = (vendor: Vendor) => received.filter((r) => r.vendor === vendor);
  return {
    url,
    teamsUrl: `${url}/workflows/0123abcd/triggers/manual/paths/invoke?api-version=2016-06-01&sp=%2Ftriggers%2Fmanual%2Frun&sv=1.0&sig=TEAMS-SIG-SECRET`,
    discordUrl: `${url}/api/webhooks/123456789012345678/DISCORD-TOKEN-SECRET`,
    received,
    of,
    answerNext(vendor, answer, times = 1) {
      const list = scripted.get(vendor) ?? [];
      for (let i = 0; i < times; i++) list.push(answer);
      scripted.set(vendor, list);
    },
    holdNext(vendor) {
      let arrived!: () => void;
      let answer: (() => void) | undefined;
      let released = false;
      const list = holds.get(vendor) ?? [];
      list.push({
        arrive(a) {
          answer = a;
          arrived();
          if (released) a();
        },
      });
      holds.set(vendor, list);
      return {
        arrived: new Promise<void>((resolve) => (arrived = resolve)),
        release() {
          released = true;
          answer?.();
        },
      };
    },
    waitFor: (vendor, count, timeoutMs = 15_000) =>
      new Promise((resolve, reject) => {
        const check = () => {
          if (of(vendor).length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(of(vendor).slice(0, count));
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`${vendor}: only ${of(vendor).length} of ${count} requests arrived`));
        }, timeoutMs);
        waiters.add(check);
        check();
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
