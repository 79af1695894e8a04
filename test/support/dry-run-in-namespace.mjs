// Runs one dry run (`POST /api/v1/monitors/test`) on a reference server started in this process,
// for tests that give the process a file system of its own (`unshare -rm`, an /etc/hosts bound
// over the machine's) so a name resolves to a local target. Built code (dist/) only.
// argv[2]: JSON { options, body }: the server's options and the dry run's body. Prints the answer's JSON.
import { randomBytes } from "node:crypto";
import { buildApp } from "../../dist/server/index.js";

const { options, body } = JSON.parse(process.argv[2]);
const key = `uk_${randomBytes(24).toString("base64url")}`;
const app = await buildApp({ logger: false, checker: false, allowPrivateTargets: true, ...options, devKey: key });
const url = await app.listen({ port: 0, host: "127.0.0.1" });
const res = await fetch(`${url}/api/v1/monitors/test`, {
  method: "POST",
  headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
  body: JSON.stringify(body),
});
process.stdout.write(`${JSON.stringify(await res.json())}\n`);
await app.close();
