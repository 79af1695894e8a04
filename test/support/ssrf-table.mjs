// Runs the outbound-policy table inside a private network namespace (`unshare -rn`, set up by
// test/server/outbound.test.ts): every address below lives on the namespace's loopback device,
// so a target the policy fails to refuse is really reached, and no packet leaves the machine.
// Prints one JSON document: the rows and every (local address, path) the server was reached on.
import { createSocket } from "node:dgram";
import { createServer } from "node:http";
import { Server, ServerCredentials } from "@grpc/grpc-js";
import { HealthImplementation } from "grpc-health-check";
import { SMTPServer } from "smtp-server";
import { WebSocketServer } from "ws";
import { interceptors } from "undici";
import { monitorType } from "../../dist/server/checker/monitor-types/registry.js";
import { deliver } from "../../dist/server/notify/deliver.js";
import { outboundAgent, targetProblem } from "../../dist/server/outbound.js";

const PORT = 8080;
const DNS = {
  "public.example": ["8.8.8.8"],
  "v6.example": ["2001:4860:4860::8888"],
  "mixed.example": ["10.0.0.1", "8.8.8.8"],
  "private.example": ["10.0.0.1"],
  "loop.example": ["127.0.0.1"],
  "meta.example": ["169.254.169.254"],
  "mapped.example": ["::ffff:127.0.0.1"],
  "nat64.example": ["64:ff9b::7f00:1"],
  "ula.example": ["fd00::1"],
};
const resolve = (hostname, _options, callback) => {
  const list = DNS[hostname.toLowerCase()];
  if (!list) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" }), []);
  callback(
    null,
    list.map((address) => ({ address, family: address.includes(":") ? 6 : 4 })),
  );
};

const reached = [];
const server = createServer((req, res) => {
  const url = new URL(req.url, "http://x");
  reached.push({
    local: req.socket.localAddress.replace(/^::ffff:/, ""),
    path: url.pathname.startsWith("/secret") ? "/secret" : url.pathname,
  });
  // An RDAP service: the bootstrap names the base URL `?rdap=`; every domain expires in 100 days.
  if (url.pathname === "/bootstrap.json") {
    res.end(JSON.stringify({ services: [[["example"], [url.searchParams.get("rdap")]]] }));
    return;
  }
  if (/\/domain\/[^/]+$/.test(url.pathname)) {
    res.end(
      JSON.stringify({
        objectClassName: "domain",
        events: [{ eventAction: "expiration", eventDate: new Date(Date.now() + 100 * 86_400_000).toISOString() }],
      }),
    );
    return;
  }
  if (url.pathname === "/redirect") {
    res.writeHead(302, { location: url.searchParams.get("to") }).end();
    return;
  }
  res.end(url.pathname === "/secret" ? "internal-secret" : "public-ok");
});
await new Promise((done) => server.listen({ port: PORT, host: "::", ipv6Only: false }, done));

// A WebSocket server (greets), a UDP echo and a gRPC health service on every loopback address.
const WS_PORT = 8081;
const UDP_PORT = 8082;
const GRPC_PORT = 8083;
const wss = new WebSocketServer({ port: WS_PORT, host: "::" });
wss.on("connection", (socket, req) => {
  reached.push({
    local: req.socket.localAddress.replace(/^::ffff:/, ""),
    path: req.url === "/secret" ? "/secret" : "/ws",
  });
  socket.send(req.url === "/secret" ? "internal-secret" : "public-ok");
});
const udp = createSocket({ type: "udp6", ipv6Only: false });
udp.on("message", (data, from) => udp.send("public-ok", from.port, from.address));
await new Promise((done) => udp.bind(UDP_PORT, "::", done));
const grpc = new Server();
new HealthImplementation({ "": "SERVING" }).addToServer(grpc);
await new Promise((done, fail) =>
  grpc.bindAsync(`[::]:${GRPC_PORT}`, ServerCredentials.createInsecure(), (err) => (err ? fail(err) : done())),
);

// An SMTP server (no STARTTLS) on every loopback address.
const SMTP_PORT = 8084;
const smtp = new SMTPServer({
  hideSTARTTLS: true,
  authOptional: true,
  logger: false,
  onConnect: (session, done) => {
    reached.push({ local: session.localAddress.replace(/^::ffff:/, ""), path: "/smtp" });
    done();
  },
});
await new Promise((done) => smtp.listen(SMTP_PORT, "::", done));
/** A domain monitor's row: the target is the RDAP bootstrap file, which names `base` as the service. */
const rdap = (bootstrap, base) => `${bootstrap}/bootstrap.json?rdap=${encodeURIComponent(base)}`;

const hop = (to) => `http://8.8.8.8:${PORT}/redirect?to=${encodeURIComponent(to)}`;
const ALLOWED = [
  "http://8.8.8.8:8080/ok",
  "http://[2001:4860:4860::8888]:8080/ok",
  "http://public.example:8080/ok",
  "http://v6.example:8080/ok",
  "http://mixed.example:8080/ok",
  hop("http://v6.example:8080/ok"),
  "tcp://8.8.8.8:8080",
  "grpc://8.8.8.8:8083",
  "grpc://public.example:8083",
  "ws://8.8.8.8:8081/ok",
  "ws://v6.example:8081/ok",
  "udp://8.8.8.8:8082",
  "udp://public.example:8082",
  `ws://8.8.8.8:8080/redirect?to=${encodeURIComponent("ws://v6.example:8081/ok")}`,
  "ping://8.8.8.8",
  "ping://public.example",
  "ping://[2001:4860:4860::8888]",
  "smtp://8.8.8.8:8084",
  "smtp://v6.example:8084",
  rdap("http://8.8.8.8:8080", "http://public.example:8080/rdap/"),
];
const REFUSED = [
  "http://127.0.0.1:8080/secret",
  "http://[::1]:8080/secret",
  "http://10.0.0.1:8080/secret",
  "http://169.254.169.254:8080/secret",
  "http://192.168.1.1:8080/secret",
  "http://100.64.0.1:8080/secret",
  "http://0.0.0.0:8080/secret",
  "http://[::ffff:127.0.0.1]:8080/secret",
  "http://[::7f00:1]:8080/secret",
  "http://[64:ff9b::7f00:1]:8080/secret",
  "http://[2002:7f00:1::]:8080/secret",
  "http://[2001:2::1]:8080/secret",
  "http://[100::1]:8080/secret",
  "http://[fec0::1]:8080/secret",
  "http://[fe80::1]:8080/secret",
  "http://[fd00::1]:8080/secret",
  "http://2130706433:8080/secret",
  "http://0x7f.1:8080/secret",
  "http://localhost:8080/secret",
  "http://app.localhost:8080/secret",
  "http://metadata.google.internal:8080/secret",
  "http://db.internal:8080/secret",
  "http://printer.local:8080/secret",
  "http://intranet:8080/secret",
  "http://private.example:8080/secret",
  "http://loop.example:8080/secret",
  "http://meta.example:8080/secret",
  "http://mapped.example:8080/secret",
  "http://nat64.example:8080/secret",
  "http://ula.example:8080/secret",
  "tcp://127.0.0.1:8080",
  "tcp://loop.example:8080",
  "tcp://[::1]:8080",
  "grpc://127.0.0.1:8083",
  "grpc://loop.example:8083",
  "grpc://[::1]:8083",
  "grpc://meta.example:8083",
  "ws://127.0.0.1:8081/secret",
  "ws://loop.example:8081/secret",
  "ws://[::1]:8081/secret",
  "ws://private.example:8081/secret",
  "udp://127.0.0.1:8082",
  "udp://loop.example:8082",
  "udp://[::1]:8082",
  "udp://nat64.example:8082",
  "ping://127.0.0.1",
  "ping://loop.example",
  "ping://[::1]",
  "ping://meta.example",
  "ping://10.0.0.1",
  "smtp://127.0.0.1:8084",
  "smtp://loop.example:8084",
  "smtp://[::1]:8084",
  "smtp://private.example:8084",
  rdap("http://127.0.0.1:8080/secret", "http://8.8.8.8:8080/rdap/"),
  rdap("http://8.8.8.8:8080", "http://127.0.0.1:8080/secret/"),
  rdap("http://8.8.8.8:8080", "http://loop.example:8080/secret/"),
  `ws://8.8.8.8:8080/redirect?to=${encodeURIComponent("ws://127.0.0.1:8081/secret")}`,
  `ws://8.8.8.8:8080/redirect?to=${encodeURIComponent("ws://loop.example:8081/secret")}`,
  hop("http://127.0.0.1:8080/secret"),
  hop("http://[::1]:8080/secret"),
  hop("http://169.254.169.254:8080/secret"),
  hop("http://10.0.0.1:8080/secret"),
  hop("http://loop.example:8080/secret"),
  hop("http://localhost:8080/secret"),
  hop("http://[::ffff:7f00:1]:8080/secret"),
  hop(hop("http://[64:ff9b::a9fe:a9fe]:8080/secret")),
];

const TYPES = { "tcp:": "tcp", "grpc:": "grpc", "ws:": "websocket", "udp:": "udp", "ping:": "ping", "smtp:": "smtp" };

function monitorFor(target) {
  const rdapRow = target.includes("/bootstrap.json");
  const type = rdapRow ? "domain" : (TYPES[new URL(target).protocol] ?? "keyword");
  const url = rdapRow ? "domain://shop.example" : target;
  return {
    type,
    url,
    method: "GET",
    headers: {},
    body: type === "udp" ? "ping" : null,
    follow_redirects: true,
    timeout_sec: 3,
    expected_status_codes: ["2xx"],
    keyword: type === "keyword" ? "ok" : null,
    keyword_case_sensitive: false,
    assertions: [],
    grpc_service: null,
    verify_tls: true,
    ping_count: 1,
    smtp_starttls: false,
    domain_expiry_days: type === "domain" ? 30 : null,
    ssl_expiry_days: null,
  };
}

async function probeRows(allowPrivate, urls, expected) {
  const direct = outboundAgent(allowPrivate, { resolve });
  const ctx = { direct, follow: direct.compose(interceptors.redirect({ maxRedirections: 5 })), allowPrivate, resolve };
  const rows = [];
  for (const url of urls) {
    const monitor = monitorFor(url);
    const probe = monitor.type === "domain" ? { ...ctx, rdapBootstrapUrl: url } : ctx;
    const result = await monitorType(monitor.type).check(monitor, { probe, insecure: () => probe }, Date.now());
    rows.push({
      kind: "probe",
      target: url,
      allowPrivate,
      createCheck: targetProblem(url, allowPrivate) ?? "ok",
      expected,
      outcome: result.up ? "up" : "refused",
      error: result.error,
    });
  }
  await direct.close();
  return rows;
}

async function deliveryRows(allowPrivate, cases) {
  const dispatcher = outboundAgent(allowPrivate, { resolve });
  const rows = [];
  for (const [url, expected] of cases) {
    const channel = { id: "chn_t", name: "t", type: "webhook", config: { url } };
    const outcome = await deliver({ dispatcher, allowPrivate, accountId: "acc", timeoutMs: 3000 }, channel, {
      event: "test",
      occurred_at: new Date().toISOString(),
    }).then(
      () => ({ outcome: "delivered", error: null }),
      (err) => ({ outcome: "refused", error: err.message }),
    );
    rows.push({
      kind: "webhook",
      target: url,
      allowPrivate,
      createCheck: targetProblem(url, allowPrivate) ?? "ok",
      expected,
      ...outcome,
    });
  }
  await dispatcher.close();
  return rows;
}

const rows = [
  ...(await probeRows(false, ALLOWED, "up")),
  ...(await probeRows(false, REFUSED, "refused")),
  ...(await probeRows(
    true,
    ["http://127.0.0.1:8080/ok", "http://loop.example:8080/ok", hop("http://10.0.0.1:8080/ok")],
    "up",
  )),
  ...(await probeRows(
    true,
    [
      "http://169.254.169.254:8080/secret",
      "http://[fe80::1]:8080/secret",
      "http://metadata.google.internal:8080/secret",
      "http://meta.example:8080/secret",
      "http://[64:ff9b::a9fe:a9fe]:8080/secret",
      "http://[::ffff:169.254.169.254]:8080/secret",
      hop("http://169.254.169.254:8080/secret"),
    ],
    "refused",
  )),
  ...(await deliveryRows(false, [
    ["http://8.8.8.8:8080/hook", "delivered"],
    ["http://127.0.0.1:8080/secret", "refused"],
    ["http://loop.example:8080/secret", "refused"],
    ["http://[::1]:8080/secret", "refused"],
    [hop("http://127.0.0.1:8080/secret"), "refused"],
  ])),
  ...(await deliveryRows(true, [
    ["http://169.254.169.254:8080/secret", "refused"],
    ["http://127.0.0.1:8080/hook", "delivered"],
  ])),
];
server.close();
for (const client of wss.clients) client.terminate();
wss.close();
udp.close();
grpc.forceShutdown();
smtp.close();
process.stdout.write(`${JSON.stringify({ rows, reached })}\n`);
