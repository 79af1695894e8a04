import { once } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { Store } from "../../../server/index";
import { newKey } from "../../support/server";
import { serveProcess, writeLoad } from "./serve";

const dir = mkdtempSync(join(tmpdir(), "uptime-crash-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe("one replica on SQLite", () => {
  it("keeps every write answered 2xx when the process is killed with SIGKILL under write load", async () => {
    const db = join(dir, "crash.db");
    const key = newKey();
    const server = await serveProcess(db, key, ["--rate-limit", "100000"]);
    const accepted: string[] = [];
    let writing = true;
    const writers = Promise.all(Array.from({ length: 6 }, () => writeLoad(server, accepted, () => writing)));
    try {
      await new Promise((r) => setTimeout(r, 4_000));
      server.child.kill("SIGKILL");
      await once(server.child, "exit");
    } finally {
      writing = false;
      await writers;
    }
    expect(accepted.length).toBeGreaterThan(50);

    // The restart: the same file and key, as after a crash.
    const again = await serveProcess(db, key);
    try {
      expect((await again.call("GET", "/readyz")).status).toBe(200);
      const store = await Store.open(db);
      try {
        const stored = new Set(
          ((await store.db.prepare("SELECT id FROM channels").all()) as { id: string }[]).map((r) => r.id),
        );
        const lost = accepted.filter((id) => !stored.has(id));
        console.log(
          `SQLite crash: ${accepted.length} writes answered 201 before SIGKILL, ${lost.length} missing after restart (${stored.size} stored)`,
        );
        expect(lost).toEqual([]);
      } finally {
        await store.close();
      }
    } finally {
      again.child.kill("SIGTERM");
      await once(again.child, "exit");
    }
  }, 120_000);
});
