import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import { listenOnLoopback } from "./listen";

/**
 * A small API a multi-step monitor walks through (`POST /echo` answers the body it got): `POST /login` (user and password in JSON) gives a
 * token; `POST /items`, `GET /items/<id>` and `DELETE /items/<id>` take it as a bearer token. A test
 * breaks reads (`brokenRead`: the item comes back without its name) or fails the first attempts of
 * every request (`failFirst`).
 */
export interface JourneyService {
  url: string;
  /** The password `/login` accepts. */
  password: string;
  /** Tokens issued so far (each login issues a new one). */
  tokens: string[];
  /** Every request, as `METHOD /path`. */
  calls: string[];
  /** Items deleted (by id). */
  deleted: string[];
  /** When true, `GET /items/<id>` answers the item without its name. */
  brokenRead: boolean;
  close(): Promise<void>;
}

/** Starts the service on a loopback port. */
export async function startJourneyService(password = `pw-${randomBytes(6).toString("hex")}`): Promise<JourneyService> {
  const items = new Map<string, { id: string; name: string }>();
  const svc: JourneyService = {
    url: "",
    password,
    tokens: [],
    calls: [],
    deleted: [],
    brokenRead: false,
    close: async () => undefined,
  };
  const json = (res: import("node:http").ServerResponse, status: number, body: unknown) =>
    res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
  const server = createServer((req, res) => {
    let raw = "";
    req.on("data", (c: Buffer) => (raw += c.toString()));
    req.on("end", () => {
      const path = req.url ?? "/";
      svc.calls.push(`${req.method} ${path}`);
      if (req.method === "POST" && path === "/login") {
        const body = JSON.parse(raw || "{}") as { user?: string; password?: string };
        if (body.password !== svc.password) return json(res, 401, { error: "bad credentials" });
        const token = `tok-${randomBytes(12).toString("hex")}`;
        svc.tokens.push(token);
        return json(res, 200, { token });
      }
      if (req.method === "POST" && path === "/echo")
        return res.writeHead(200, { "content-type": "text/plain" }).end(raw);
      const auth = req.headers.authorization ?? "";
      if (!svc.tokens.some((t) => auth === `Bearer ${t}`)) return json(res, 401, { error: "no token" });
      if (req.method === "POST" && path === "/items") {
        const id = `it_${randomBytes(4).toString("hex")}`;
        items.set(id, { id, name: (JSON.parse(raw || "{}") as { name?: string }).name ?? "" });
        return json(res, 201, { id });
      }
      const m = /^\/items\/([\w-]+)$/.exec(path);
      const item = m ? items.get(m[1] as string) : undefined;
      if (!item) return json(res, 404, { error: "no such item" });
      if (req.method === "GET") return json(res, 200, svc.brokenRead ? { id: item.id } : item);
      if (req.method === "DELETE") {
        items.delete(item.id);
        svc.deleted.push(item.id);
        return res.writeHead(204).end();
      }
      return json(res, 405, { error: "method not allowed" });
    });
  });
  Object.assign(svc, await listenOnLoopback(server));
  return svc;
}

/** The 4-step journey of the tests: log in, create an item, read it back, delete it (clean-up). */
export function journeySteps(base: string) {
  return [
    {
      name: "log in",
      method: "POST" as const,
      url: `${base}/login`,
      headers: { "content-type": "application/json" },
      body: '{"user":"probe","password":"{{password}}"}',
      extract: [{ name: "token", source: "json_body" as const, property: "$.token", secret: true }],
    },
    {
      name: "create",
      method: "POST" as const,
      url: `${base}/items`,
      headers: { authorization: "Bearer {{token}}", "content-type": "application/json" },
      body: '{"name":"probe item"}',
      statuses: [201],
      extract: [{ name: "id", source: "json_body" as const, property: "$.id" }],
    },
    {
      name: "read",
      url: `${base}/items/{{id}}`,
      headers: { authorization: "Bearer {{token}}" },
      assertions: [
        { source: "json_body" as const, property: "$.name", comparison: "equals" as const, target: "probe item" },
      ],
    },
    {
      name: "delete",
      method: "DELETE" as const,
      url: `${base}/items/{{id}}`,
      headers: { authorization: "Bearer {{token}}" },
      statuses: [204],
      cleanup: true,
    },
  ];
}
