/**
 * Two replicas of the reference server on one PostgreSQL database, as hooks of a `describe` block.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import type { ServerOptionsInput } from "../../server/index";
import { newKey, startServer, type TestServer } from "./server";
import { newPostgresDatabase } from "./store-engines";
import { standIn } from "./use-server";

/**
 * Replicas A and B (`startServer` with `options`) on one new database of the run's PostgreSQL, with
 * one secret key file and one dev key, started before the block's tests and closed (the key file
 * removed) after them. Answers stand-ins for both (see `standIn`).
 */
export function useReplicas(options: ServerOptionsInput = {}): [TestServer, TestServer] {
  const replicas: TestServer[] = [];
  const dir = mkdtempSync(join(tmpdir(), "uptime-replicas-"));
  beforeAll(async () => {
    const db = await newPostgresDatabase();
    const shared = { db, secretKeyFile: join(dir, "secret.key"), devKey: newKey(), ...options };
    replicas.push(await startServer(shared));
    replicas.push(await startServer(shared));
  });
  afterAll(async () => {
    for (const replica of replicas.splice(0)) await replica.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return [
    standIn("replica A of useReplicas()", () => replicas[0]),
    standIn("replica B of useReplicas()", () => replicas[1]),
  ];
}
