import { Resolver } from "node:dns/promises";
import { type DnsRecordType, type MonitorExtensionSpec, normalizeDnsValue, parseResolver } from "../../../api";
import { refusal } from "../../outbound";
import type { ProbeResult } from "../probe";
import { classed, type MonitorType } from "./monitor-type";

/** What a DNS monitor needs: the name (`dns://host`) and its extension fields. */
export type DnsMonitor = Pick<MonitorExtensionSpec, "dns_record_type" | "dns_expected_values" | "dns_resolver"> & {
  url: string;
  timeout_sec: number;
};

/** Answers of one record type, in the normal form of expected values. */
async function answers(resolver: Resolver, name: string, type: DnsRecordType): Promise<string[]> {
  switch (type) {
    case "A":
      return resolver.resolve4(name);
    case "AAAA":
      return resolver.resolve6(name);
    case "CNAME":
      return resolver.resolveCname(name);
    case "NS":
      return resolver.resolveNs(name);
    case "MX":
      return (await resolver.resolveMx(name)).map((mx) => `${mx.priority} ${mx.exchange}`);
    case "TXT":
      return (await resolver.resolveTxt(name)).map((chunks) => chunks.join(""));
  }
}

/**
 * Resolves the monitor's name and compares the answer set with the expected set: up only when
 * they are equal. A resolver address obeys the outbound policy like any probe target.
 */
export async function probeDns(monitor: DnsMonitor, allowPrivate: boolean): Promise<ProbeResult> {
  const started = performance.now();
  const down = (error: string): ProbeResult => ({ up: false, response_time_ms: null, status_code: null, error });
  const resolver = new Resolver({ timeout: monitor.timeout_sec * 1000, tries: 1 });
  if (monitor.dns_resolver !== null) {
    const server = parseResolver(monitor.dns_resolver);
    if (!server) return down(`resolver ${monitor.dns_resolver} is not an IP address`);
    const why = refusal(server.host, allowPrivate);
    if (why) return down(`resolver refused: ${why}`);
    resolver.setServers([
      server.host.includes(":") ? `[${server.host}]:${server.port}` : `${server.host}:${server.port}`,
    ]);
  }
  const name = new URL(monitor.url).hostname;
  const type = monitor.dns_record_type;
  try {
    const got = [...new Set((await answers(resolver, name, type)).map((v) => normalizeDnsValue(type, v)))].sort();
    const response_time_ms = Math.round(performance.now() - started);
    const expected = [...new Set(monitor.dns_expected_values.map((v) => normalizeDnsValue(type, v)))].sort();
    if (got.length !== expected.length || got.some((v, i) => v !== expected[i])) {
      return {
        up: false,
        response_time_ms,
        status_code: null,
        error: `${type} ${name} is [${got.join(", ")}], expected [${expected.join(", ")}]`,
      };
    }
    return { up: true, response_time_ms, status_code: null, error: null };
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    return down(`${type} ${name}: ${e.code ?? e.message}`);
  } finally {
    resolver.cancel();
  }
}

/** DNS monitors (`dns://host`): up while the answers of one record type equal the expected set. */
export const dnsType: MonitorType = {
  name: "dns",
  probes: true,
  check: async (monitor, ctx) =>
    classed(await probeDns({ ...monitor, url: monitor.url ?? "" }, ctx.probe.allowPrivate), "dns"),
};
