import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer, emailChannel } from "../support/server";

describe("email channels", () => {
  let smtp: SMTPServer;
  let port: number;
  const mails: { to: string[]; data: string }[] = [];
  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ["STARTTLS"],
      onData(stream, session, done) {
        let data = "";
        stream.on("data", (c) => {
          data += c;
        });
        stream.on("end", () => {
          mails.push({ to: session.envelope.rcptTo.map((r) => r.address), data });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", resolve));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it("are sent through the configured SMTP server", async () => {
    const s: TestServer = await startServer({ smtpUrl: `smtp://127.0.0.1:${port}`, smtpFrom: "alerts@example.com" });
    try {
      const c = await emailChannel(s, "mail", "oncall@example.com");
      const res = await s.call("POST", `/api/v1/channels/${c.id}/test`);
      expect(res.body.data).toMatchObject({ delivered: true });
      expect(mails).toHaveLength(1);
      expect(mails[0]?.to).toEqual(["oncall@example.com"]);
      expect(mails[0]?.data).toMatch(/Subject: Test notification from pulumi-uptime/);
      expect(await s.app.store.outbox.list()).toEqual([]);
    } finally {
      await s.close();
    }
  });
});
