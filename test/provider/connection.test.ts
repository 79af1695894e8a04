import { describe, expect, it } from "vitest";
import { isLoopback, normalBaseUrl, resolveConnection } from "../../provider/client/connection";

const KEY = "uk_test";

describe("connection", () => {
  it("the public mode resolves the base URL with the same precedence and needs no key", () => {
    const env = { UPTIME_API_URL: "http://127.0.0.1:1/" };
    expect(resolveConnection(undefined, { baseUrl: "http://localhost:2" }, env, "public")).toEqual({
      baseUrl: "http://127.0.0.1:1",
      apiKey: undefined,
    });
    expect(resolveConnection({ baseUrl: "https://arg.example" }, {}, env, "public").baseUrl).toBe(
      "https://arg.example",
    );
    expect(() => resolveConnection({ baseUrl: "https://arg.example" }, {}, {}, "public")).not.toThrow();
    expect(() => resolveConnection({ baseUrl: "https://arg.example" }, {}, {})).toThrow(/No API key/);
    expect(() => resolveConnection({ baseUrl: "ftp://x" }, {}, {}, "public")).toThrow(
      /baseUrl \(from the resource's `connection.baseUrl`\) must be an http/,
    );
  });

  it("has no default URL: a missing one says every place to set it, in both modes", () => {
    for (const mode of ["api", "public"] as const) {
      const resolve = () =>
        mode === "api"
          ? resolveConnection(undefined, { apiKey: KEY }, {})
          : resolveConnection(undefined, {}, {}, "public");
      expect(resolve).toThrow(/No service URL/);
      expect(resolve).toThrow(/pulumi config set uptime:baseUrl/);
      expect(resolve).toThrow(/UPTIME_API_URL/);
      expect(resolve).toThrow(/connection\.baseUrl/);
    }
  });

  it("refuses plain http:// to a host that is not loopback, naming where the URL was set and the opt-ins", () => {
    expect(() => resolveConnection({ baseUrl: "http://uptime.example.com", apiKey: KEY }, {}, {})).toThrow(
      /baseUrl \(from the resource's `connection.baseUrl`\) is plain http:\/\/ to uptime\.example\.com.*uptime:allowInsecureHttp.*UPTIME_ALLOW_INSECURE_HTTP.*connection\.allowInsecureHttp/,
    );
    expect(() => resolveConnection(undefined, { apiKey: KEY }, { UPTIME_API_URL: "http://10.0.0.5:8080" })).toThrow(
      /from the environment variable UPTIME_API_URL/,
    );
    expect(() => resolveConnection(undefined, { baseUrl: "http://uptime.internal", apiKey: KEY }, {})).toThrow(
      /from the stack config `uptime:baseUrl`/,
    );
    // Each opt-in allows it; https never needs one.
    const url = "http://uptime.internal:8080/";
    expect(resolveConnection({ baseUrl: url, apiKey: KEY, allowInsecureHttp: true }, {}, {}).baseUrl).toBe(
      "http://uptime.internal:8080",
    );
    expect(resolveConnection({ baseUrl: url, apiKey: KEY, allowInsecureHttp: "true" }, {}, {}).baseUrl).toBe(
      "http://uptime.internal:8080",
    );
    expect(resolveConnection({ baseUrl: url, apiKey: KEY }, {}, { UPTIME_ALLOW_INSECURE_HTTP: "1" }).baseUrl).toBe(
      "http://uptime.internal:8080",
    );
    expect(resolveConnection({ baseUrl: url, apiKey: KEY }, { allowInsecureHttp: "true" }, {}).baseUrl).toBe(
      "http://uptime.internal:8080",
    );
    expect(() => resolveConnection({ baseUrl: url, apiKey: KEY }, { allowInsecureHttp: "false" }, {})).toThrow(
      /plain http/,
    );
    expect(resolveConnection({ baseUrl: "https://uptime.example.com", apiKey: KEY }, {}, {}).baseUrl).toBe(
      "https://uptime.example.com",
    );
  });

  it("treats loopback hosts as local", () => {
    for (const host of ["localhost", "LOCALHOST", "api.localhost", "127.0.0.1", "127.1.2.3", "[::1]"])
      expect(isLoopback(host), host).toBe(true);
    for (const host of ["localhost.example.com", "128.0.0.1", "10.0.0.1", "example.com", "[::2]"])
      expect(isLoopback(host), host).toBe(false);
    expect(resolveConnection({ baseUrl: "http://[::1]:9/", apiKey: KEY }, {}, {}).baseUrl).toBe("http://[::1]:9");
  });

  it("gives one spelling of a URL: case, default port and trailing slash do not matter", () => {
    expect(normalBaseUrl("HTTP://LocalHost:80/")).toBe("http://localhost");
    expect(normalBaseUrl("https://Uptime.Example.com:443//")).toBe("https://uptime.example.com");
    expect(normalBaseUrl("https://uptime.example.com/base/")).toBe("https://uptime.example.com/base");
    expect(resolveConnection({ baseUrl: "HTTP://127.0.0.1:8080/", apiKey: KEY }, {}, {}).baseUrl).toBe(
      "http://127.0.0.1:8080",
    );
  });

  it("records where the key came from, never the key in a message", () => {
    expect(
      resolveConnection({ baseUrl: "https://a.example", apiKey: KEY }, {}, { UPTIME_API_KEY: "uk_env" }).apiKeySource,
    ).toBe("connection");
    expect(
      resolveConnection({ baseUrl: "https://a.example" }, { apiKey: "uk_cfg" }, { UPTIME_API_KEY: "uk_env" })
        .apiKeySource,
    ).toBe("env");
    expect(resolveConnection({ baseUrl: "https://a.example" }, { apiKey: "uk_cfg" }, {}).apiKeySource).toBe("config");
    expect(() => resolveConnection({ baseUrl: "https://a.example" }, { apiKey: "secret-not-uk" }, {})).toThrow(
      /from the stack config `uptime:apiKey` must start with uk_/,
    );
    expect(() => resolveConnection({ baseUrl: "https://a.example" }, { apiKey: "secret-not-uk" }, {})).not.toThrow(
      /secret-not-uk/,
    );
  });
});
