import { describe, expect, it } from "vitest";
import { resolveConnection } from "../../provider/client/connection";

describe("connection", () => {
  it("the public mode resolves the base URL with the same precedence and needs no key", () => {
    const env = { UPTIME_API_URL: "http://env.example:1/" };
    expect(resolveConnection(undefined, { baseUrl: "http://stack.example" }, env, "public")).toEqual({ baseUrl: "http://env.example:1", apiKey: undefined });
    expect(resolveConnection({ baseUrl: "http://arg.example" }, {}, env, "public").baseUrl).toBe("http://arg.example");
    expect(resolveConnection(undefined, {}, {}, "public").baseUrl).toBe("http://127.0.0.1:8080");
    expect(() => resolveConnection(undefined, {}, {}, "public")).not.toThrow();
    expect(() => resolveConnection(undefined, {}, {})).toThrow(/No API key/);
    expect(() => resolveConnection({ baseUrl: "ftp://x" }, {}, {}, "public")).toThrow(/baseUrl must be an http/);
  });
});
