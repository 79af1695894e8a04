import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

/** A mail the sink was sent: its envelope, its raw text, and the login it came with (if any). */
export interface SunkMail {
  from: string;
  to: string[];
  data: string;
  user?: string;
  pass?: string;
}

/** An SMTP server on loopback that keeps what it is sent. */
export interface MailSink {
  port: number;
  close: () => Promise<void>;
}

/**
 * Starts an SMTP server on a free port of 127.0.0.1 (no STARTTLS; a login is optional, allowed in the
 * clear and kept) that pushes every mail it accepts onto `mails`.
 */
export async function startMailSink(mails: SunkMail[]): Promise<MailSink> {
  const smtp = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ["STARTTLS"],
    onAuth(auth, _session, done) {
      done(null, { user: `${auth.username}:${auth.password}` });
    },
    onData(stream, session, done) {
      let data = "";
      stream.on("data", (c) => (data += c));
      stream.on("end", () => {
        const [user, pass] = session.user === undefined ? [] : String(session.user).split(":");
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          data,
          user,
          pass,
        });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
  return {
    port: (smtp.server.address() as AddressInfo).port,
    close: () => new Promise<void>((resolve) => smtp.close(() => resolve())),
  };
}
