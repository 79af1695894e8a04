/** Inputs of a Monitor resource as a program gives them: an http monitor checked every 60 s, `over` on top. */
export function monitorInputs(connection: unknown, over: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: "api", type: "http", url: "https://api.example.com/health", intervalSec: 60, connection, ...over };
}
