import { describe, expect, it } from "vitest";
import { startServer, type TestServer, emailChannel } from "../support/server";
import { type SunkMail, startMailSink } from "../support/mail-sink";
import { useStarted } from "../support/use-server";

describe("email channels", () => {
  const mails: SunkMail[] = [];
  const smtp = useStarted("the mail sink", () => startMailSink(mails));

  it("are sent through the configured SMTP server", async () => {
    const s: TestServer = await startServer({
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      smtpFrom: "alerts@example.com",
    });
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
