// The benchmarks' target in a process of its own: every path answers the same small JSON, and
// the parent learns its URL by IPC.
import { createServer } from "node:http";

const body = JSON.stringify({ token: "bench-token", id: "it_1", ok: true });
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(body));
});
server.listen(0, "127.0.0.1", () => process.send?.(`http://127.0.0.1:${(server.address() as { port: number }).port}`));
process.on("disconnect", () => server.close());
