import dns2 from "dns2";

const { Packet } = dns2;

/** A local authoritative DNS server (dns2) whose records a test changes. */
export interface DnsServer {
  /** `127.0.0.1:<port>`, as a monitor's `dns_resolver`. */
  address: string;
  /** name → type → answers (`"10 mx.example.test"` for MX). */
  records: Map<string, Map<string, string[]>>;
  set: (name: string, type: "A" | "AAAA" | "CNAME" | "MX" | "TXT" | "NS", values: string[]) => void;
  close: () => Promise<void>;
}

function answer(name: string, type: string, value: string): Record<string, unknown> {
  const base = { name, class: Packet.CLASS.IN, ttl: 1 };
  switch (type) {
    case "A":
      return { ...base, type: Packet.TYPE.A, address: value };
    case "AAAA":
      return { ...base, type: Packet.TYPE.AAAA, address: value };
    case "CNAME":
      return { ...base, type: Packet.TYPE.CNAME, domain: value };
    case "NS":
      return { ...base, type: Packet.TYPE.NS, ns: value };
    case "TXT":
      return { ...base, type: Packet.TYPE.TXT, data: value };
    default: {
      const [priority, exchange] = value.split(" ");
      return { ...base, type: Packet.TYPE.MX, priority: Number(priority), exchange };
    }
  }
}

export async function startDnsServer(): Promise<DnsServer> {
  const records = new Map<string, Map<string, string[]>>();
  const typeName = (code: number) => Object.entries(Packet.TYPE).find(([, v]) => v === code)?.[0] ?? "";
  const server = dns2.createServer({
    udp: true,
    handle: (request, send) => {
      const response = Packet.createResponseFromRequest(request);
      const [question] = request.questions;
      if (question) {
        const type = typeName(question.type);
        const values = records.get(question.name.toLowerCase())?.get(type);
        if (values === undefined) response.header.rcode = 3; // NXDOMAIN
        for (const value of values ?? []) response.answers.push(answer(question.name, type, value) as never);
      }
      send(response);
    },
  });
  const addresses = await server.listen({ udp: { port: 0, address: "127.0.0.1" } });
  const port = (addresses as unknown as { udp: { port: number } }).udp.port;
  return {
    address: `127.0.0.1:${port}`,
    records,
    set: (name, type, values) => {
      const byType = records.get(name) ?? new Map<string, string[]>();
      byType.set(type, values);
      records.set(name, byType);
    },
    close: () => server.close(),
  };
}
