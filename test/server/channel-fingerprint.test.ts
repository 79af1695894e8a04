import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { canonicalConfigJson } from "../../api";
import { newKey, startServer } from "../support/server";
import { useTempDir } from "../support/temp-dir";

const CONFIG = { url: "https://hooks.example.com/hook?token=guessable-token-123" };

/** Starts a server on `db` with `keyFile`, reads the channel's fingerprint, stops the server. */
async function fingerprintOn(db: string, keyFile: string, devKey: string, id: string): Promise<string> {
  const s = await startServer({ db, secretKeyFile: keyFile, devKey });
  try {
    const got = await s.call("GET", `/api/v1/channels/${id}`);
    expect(got.status).toBe(200);
    return got.body.data.config_fingerprint as string;
  } finally {
    await s.close();
  }
}

describe("channel config_fingerprint", () => {
  const inDir = useTempDir("fingerprint-");

  it("is keyed by the server's secret key: stable across restarts, other under another key, never the plain hash", async () => {
    const db = inDir("a.db");
    const keyFile = inDir("a.key");
    const devKey = newKey();
    const s = await startServer({ db, secretKeyFile: keyFile, devKey });
    const created = await s.call("POST", "/api/v1/channels", { name: "hook", type: "webhook", config: CONFIG });
    await s.close();
    expect(created.status).toBe(201);
    const { id, config_fingerprint: written } = created.body.data as { id: string; config_fingerprint: string };
    expect(written).toMatch(/^[0-9a-f]{64}$/);

    // Not testable offline: neither the unkeyed SHA-256 of the config the previous version served.
    const plain = (s: string) => createHash("sha256").update(s).digest("hex");
    const canonical = canonicalConfigJson(CONFIG);
    expect([
      plain(`${id}\n${canonical}`),
      plain(canonical),
      plain(`channel-config\0${id}\0${canonical}`),
    ]).not.toContain(written);

    // The same database and key file after a restart: the same fingerprint.
    expect(await fingerprintOn(db, keyFile, devKey, id)).toBe(written);

    // The same channel (id and config) on a server whose key file holds another fingerprint key
    // (the oldest line; the current key still opens the sealed config): another fingerprint.
    const copy = inDir("b.db");
    copyFileSync(db, copy);
    const otherKey = inDir("b.key");
    writeFileSync(otherKey, `${readFileSync(keyFile, "utf8")}kother ${randomBytes(32).toString("base64")}\n`, {
      mode: 0o600,
    });
    const other = await fingerprintOn(copy, otherKey, devKey, id);
    expect(other).toMatch(/^[0-9a-f]{64}$/);
    expect(other).not.toBe(written);
  });
});
