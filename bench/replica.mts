// One replica for bench/replicas.mts: the server as `uptime-server serve` builds it, with the
// per-socket request limit lifted (autocannon keeps sending on a socket the server marked
// `Connection: close`, and Node answers those with 503). Prints the CLI's "listening" line.
//
//   node bench/replica.mts <db> <secret key file>
import { buildApp } from "../dist/server/index.js";
import { closeOnSignals } from "../dist/server/ops/shutdown.js";

const [db, secretKeyFile] = process.argv.slice(2);
const app = await buildApp({
  db,
  secretKeyFile,
  devKey: process.env.UPTIME_DEV_KEY,
  minIntervalSec: 1,
  allowPrivateTargets: true,
  rateLimit: 100_000_000,
  maxRequestsPerSocket: 100_000_000,
  logger: { level: "info" },
});
closeOnSignals(app, app.settings.shutdownTimeoutMs);
await app.listen({ port: 0, host: "127.0.0.1" });
