import type { Socket } from "node:net";
import type { TLSSocket } from "node:tls";

/** One reply of an SMTP server: its code and the text of each line. */
export interface SmtpReply {
  code: number;
  lines: string[];
}

/** The most a reply may hold before the server is judged broken (a banner, EHLO's capabilities). */
const MAX_REPLY_BYTES = 64 * 1024;

/**
 * The client's side of an SMTP exchange (RFC 5321): commands out, multi-line replies in
 * (`250-…` continues, `250 …` ends), on a plain socket and, after STARTTLS, on the TLS one.
 */
export class SmtpSession {
  private buffer = "";
  private lines: string[] = [];
  private waiting?: { resolve: (r: SmtpReply) => void; reject: (e: Error) => void };
  private failed?: Error;
  private socket!: Socket;

  constructor(socket: Socket) {
    this.attach(socket);
  }

  /** Reads from `socket` from now on (the TLS socket STARTTLS made over the plain one). */
  attach(socket: Socket | TLSSocket): void {
    this.socket?.removeAllListeners("data");
    this.socket = socket;
    this.buffer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => this.take(chunk));
    socket.on("error", (err) => this.fail(err));
    socket.on("close", () =>
      this.fail(Object.assign(new Error("the server closed the connection mid-exchange"), { code: "ECONNRESET" })),
    );
  }

  /** Stops reading the plain socket, so TLS can take it over (STARTTLS). */
  release(): Socket {
    this.socket.removeAllListeners("data");
    this.socket.removeAllListeners("close");
    return this.socket;
  }

  /** The next complete reply. */
  read(): Promise<SmtpReply> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
      this.deliver();
    });
  }

  /** Sends `command` and reads its reply. */
  command(command: string): Promise<SmtpReply> {
    this.socket.write(`${command}\r\n`);
    return this.read();
  }

  private take(chunk: string): void {
    this.buffer += chunk;
    if (this.buffer.length > MAX_REPLY_BYTES)
      return this.fail(new Error(`the server sent more than ${MAX_REPLY_BYTES} bytes without ending its reply`));
    let end: number;
    while ((end = this.buffer.indexOf("\n")) >= 0) {
      this.lines.push(this.buffer.slice(0, end).replace(/\r$/, ""));
      this.buffer = this.buffer.slice(end + 1);
    }
    this.deliver();
  }

  private deliver(): void {
    if (!this.waiting) return;
    const last = this.lines.findIndex((l) => !/^\d{3}-/.test(l));
    if (last < 0) return;
    const lines = this.lines.splice(0, last + 1);
    const code = Number(lines[last]?.slice(0, 3));
    const waiting = this.waiting;
    this.waiting = undefined;
    if (!Number.isInteger(code) || code < 200)
      return waiting.reject(new Error(`not an SMTP reply: ${JSON.stringify(lines[last]?.slice(0, 80))}`));
    waiting.resolve({ code, lines: lines.map((l) => l.slice(4)) });
  }

  private fail(err: Error): void {
    this.failed ??= err;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.reject(err);
  }
}
