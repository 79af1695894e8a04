import * as pulumi from "@pulumi/pulumi";
import * as uptime from "pulumi-uptime";

const config = new pulumi.Config();
const token = config.requireSecret("token");

/** The health of one gRPC service, asked with a secret bearer token in the metadata. */
const cart = new uptime.Monitor("cart-grpc", {
  type: "grpc",
  // With `noPort`, the URL has no port: the preview fails, naming the field and the rule.
  url: config.getBoolean("noPort") ? "grpc://localhost" : config.require("grpcUrl"),
  grpcService: "shop.Cart",
  headers: { authorization: pulumi.interpolate`Bearer ${token}` },
  intervalSec: 30,
  timeoutSec: 2,
  maxResponseMs: 1500,
});

/** A WebSocket that answers the message sent with `echo:<message>`. */
const feed = new uptime.Monitor("feed-ws", {
  type: "websocket",
  url: `${config.require("wsUrl")}/echo`,
  headers: { "X-Token": token },
  body: "ping",
  assertions: [{ source: "text_body", comparison: "equals", target: "echo:ping" }],
  intervalSec: 30,
  timeoutSec: 2,
});

/** A UDP service that answers `ping` with `pong:ping`. */
const echo = new uptime.Monitor("echo-udp", {
  type: "udp",
  url: config.require("udpUrl"),
  body: "ping",
  assertions: [{ source: "text_body", comparison: "matches", target: "^pong:" }],
  intervalSec: 30,
  timeoutSec: 2,
});

export const ids = { grpc: cart.id, websocket: feed.id, udp: echo.id };
