/**
 * fast-check generators of valid resource inputs, written the many ways a user may write the same
 * thing: padded and unicode names, mixed-case header names and hosts, default ports, trailing
 * slashes, sets in any order with repeats, defaults left out or spelled out.
 */
import fc from "fast-check";
import { CHANNEL_EVENTS, HTTP_METHODS, METHODS_WITH_BODY, PAGERDUTY_SEVERITIES } from "../../api";

type Props = Record<string, unknown>;

/** Leaves a value out half the time (`undefined` drops the key). */
const maybe = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(arb, { nil: undefined });

const padding = fc.constantFrom("", " ", "  ", "\t", " \u00a0");

/** 1..120 characters, not only spaces: unicode graphemes, padded with spaces on either side. */
export const displayName = fc
  .tuple(padding, fc.string({ unit: "grapheme", minLength: 1, maxLength: 30 }), padding)
  .map(([a, core, b]) => `${a}${core}${b}`)
  .filter((s) => /\S/.test(s) && s.length <= 120);

const mixCase = (s: string, flips: boolean[]) =>
  [...s].map((c, i) => (flips[i % flips.length] ? c.toUpperCase() : c)).join("");
const casing = fc.array(fc.boolean(), { minLength: 1, maxLength: 8 });

const label = fc.stringMatching(/^[a-z][a-z0-9-]{0,10}[a-z0-9]$/);
/** A host name in any case, e.g. `Api.EXAMPLE.com`. */
const host = fc
  .tuple(fc.array(label, { minLength: 1, maxLength: 3 }), casing)
  .map(([parts, c]) => mixCase(`${parts.join(".")}.example.com`, c));

/** `http(s)://HOST[:port][/path[/]]`, with default ports written out or not. */
export const httpUrl = fc
  .record({
    scheme: fc.constantFrom("http", "https", "HTTP", "Https"),
    host,
    port: fc.constantFrom("", ":default", ":8080", ":8443"),
    path: fc.constantFrom("", "/", "/health", "/health/", "/a/b?x=1&y=2", "/Status#frag"),
  })
  .map(({ scheme, host: h, port, path }) => {
    const p = port === ":default" ? (scheme.toLowerCase() === "http" ? ":80" : ":443") : port;
    return `${scheme}://${h}${p}${path}`;
  });

const tcpUrl = fc.tuple(host, fc.integer({ min: 1, max: 65535 })).map(([h, port]) => `tcp://${h}:${port}`);

const headerName = fc.tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9-]{0,15}$/), casing).map(([n, c]) => mixCase(n, c));
const headerValue = fc.string({ maxLength: 40 }).filter((v) => !/[\r\n]/.test(v));
/** Header names unique case-insensitively (a set of names), each written in any case. */
const headers = fc
  .uniqueArray(fc.tuple(headerName, headerValue), { maxLength: 6, selector: ([n]) => n.toLowerCase() })
  .map((pairs) => Object.fromEntries(pairs));

const statusRule = fc.oneof(fc.integer({ min: 100, max: 599 }), fc.constantFrom("1xx", "2xx", "3xx", "4xx", "5xx"));
const tag = fc.tuple(fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,12}$/), casing).map(([t, c]) => mixCase(t, c));

/** A set written in any order, with repeats. */
const setOf = <T>(values: readonly T[], max: number): fc.Arbitrary<T[]> =>
  values.length === 0 ? fc.constant([]) : fc.array(fc.constantFrom(...values), { maxLength: max });

/** Left out, or written as null: both mean "none". */
const absent = fc.constantFrom(undefined, null);
const numberText = fc.integer({ min: 0, max: 10_000 }).map(String);
const textTarget = fc.string({ maxLength: 20 });
const regex = fc.constantFrom("^ok$", "(?i)healthy", "v\\d+\\.\\d+", "a|b");
const jsonPath = fc.constantFrom("$", "$.status", "$.data.items[0].id", "$['weird key']", "$..name");
/** One valid assertion of any source, header names in any case, optional parts left out or null. */
const assertion: fc.Arbitrary<Props> = fc
  .oneof(
    fc.record({
      source: fc.constantFrom("status_code", "response_time"),
      comparison: fc.constantFrom("equals", "not_equals", "greater_than", "less_than"),
      target: numberText,
      property: absent,
    }),
    fc.record({
      source: fc.constant("headers"),
      property: headerName,
      comparison: fc.constantFrom("equals", "contains", "not_contains"),
      target: textTarget,
    }),
    fc.record({
      source: fc.constant("headers"),
      property: headerName,
      comparison: fc.constantFrom("is_empty", "not_empty"),
      target: absent,
    }),
    fc.record({
      source: fc.constant("json_body"),
      property: fc.oneof(jsonPath, absent),
      comparison: fc.constantFrom("equals", "not_equals", "contains"),
      target: textTarget,
    }),
    fc.record({
      source: fc.constant("json_body"),
      property: jsonPath,
      comparison: fc.constantFrom("greater_than", "less_than"),
      target: numberText,
    }),
    fc.record({ source: fc.constantFrom("text_body", "json_body"), comparison: fc.constant("matches"), target: regex }),
    fc.record({
      source: fc.constant("text_body"),
      comparison: fc.constantFrom("is_empty", "not_empty"),
      target: absent,
    }),
  )
  .map((a) => Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)));

/** Valid Monitor inputs; `channelIds` from existing channels. */
export function monitorInputs(channelIds: readonly string[]): fc.Arbitrary<Props> {
  return fc
    .record({
      name: maybe(displayName),
      type: fc.constantFrom("http", "keyword", "tcp"),
      interval: fc.integer({ min: 30, max: 86_400 }),
      timeout: maybe(fc.integer({ min: 1, max: 60 })),
      method: maybe(fc.constantFrom(...HTTP_METHODS)),
      headers: maybe(headers),
      body: maybe(fc.string({ maxLength: 60 })),
      expectedStatusCodes: maybe(fc.array(statusRule, { minLength: 1, maxLength: 8 })),
      keyword: fc.string({ unit: "grapheme", minLength: 1, maxLength: 20 }),
      keywordCaseSensitive: maybe(fc.boolean()),
      followRedirects: maybe(fc.boolean()),
      channelIds: maybe(setOf(channelIds, 8)),
      tags: maybe(fc.array(tag, { maxLength: 20 })),
      paused: maybe(fc.boolean()),
      assertions: maybe(fc.array(assertion, { maxLength: 5 })),
      degraded: maybe(fc.integer({ min: 1, max: 30_000 })),
      max: maybe(fc.integer({ min: 1, max: 30_000 })),
      httpUrl,
      tcpUrl,
      // At least the server's minimum interval (30 s by default); null means none.
      remind: maybe(fc.oneof(fc.constant(null), fc.integer({ min: 30, max: 604_800 }))),
      escalation: maybe(
        channelIds.length === 0
          ? fc.constant<Props[]>([])
          : fc.array<Props>(
              fc.record({
                after: fc.integer({ min: 0, max: 604_800 }),
                channels: fc.array(fc.constantFrom(...channelIds), { minLength: 1, maxLength: 3 }),
              }),
              { maxLength: 5 },
            ),
      ),
    })
    .map((g) => {
      const timeoutSec = g.timeout === undefined ? undefined : Math.min(g.timeout, g.interval - 1);
      const method = g.type === "tcp" ? undefined : g.method;
      return strip({
        name: g.name ?? "unnamed",
        type: g.type,
        url: g.type === "tcp" ? g.tcpUrl : g.httpUrl,
        intervalSec: g.interval,
        timeoutSec,
        method,
        headers: g.headers,
        body: method && METHODS_WITH_BODY.includes(method) ? g.body : undefined,
        expectedStatusCodes: g.expectedStatusCodes,
        keyword: g.type === "keyword" ? g.keyword : undefined,
        keywordCaseSensitive: g.keywordCaseSensitive,
        followRedirects: g.followRedirects,
        channelIds: g.channelIds,
        tags: g.tags,
        paused: g.paused,
        assertions: g.type === "tcp" ? undefined : g.assertions,
        degradedResponseMs: g.degraded,
        // Above the degraded threshold when both are set.
        maxResponseMs: g.max === undefined ? undefined : g.degraded === undefined ? g.max : g.degraded + g.max,
        remindEverySec: g.remind,
        escalation: g.escalation,
      });
    });
}

const email = fc
  .tuple(fc.stringMatching(/^[a-z][a-z0-9._-]{0,10}[a-z0-9]$/), host, casing)
  .filter(([local]) => !local.includes(".."))
  .map(([local, h, c]) => `${mixCase(local, c)}@${h}`);

/** `events` left out, or a set of channel events in any order with repeats. */
const events = maybe(fc.array(fc.constantFrom(...CHANNEL_EVENTS), { maxLength: 6 }));
const alnum = (min: number, max: number) => fc.stringMatching(new RegExp(`^[A-Za-z0-9]{${min},${max}}$`));
/** A base URL without query or fragment (a vendor API override). */
const baseUrl = httpUrl.map((u) => u.replace(/[?#].*$/, ""));

/** Valid Channel inputs of every type, with `events` and `notifyDegraded` that agree. */
export const channelInputs: fc.Arbitrary<Props> = fc
  .tuple(
    fc.oneof(
      fc.record({
        name: displayName,
        type: fc.constant("webhook"),
        config: fc.record({ url: httpUrl, secret: maybe(fc.string({ minLength: 16, maxLength: 40 })) }),
      }),
      fc.record({ name: displayName, type: fc.constant("slack"), config: fc.record({ webhookUrl: httpUrl }) }),
      fc.record({ name: displayName, type: fc.constant("email"), config: fc.record({ address: email }) }),
      fc.record({
        name: displayName,
        type: fc.constant("pagerduty"),
        config: fc.record({
          routingKey: alnum(32, 32),
          severity: maybe(fc.constantFrom(...PAGERDUTY_SEVERITIES)),
          apiUrl: maybe(baseUrl),
        }),
      }),
      fc.record({
        name: displayName,
        type: fc.constant("opsgenie"),
        config: fc.record({
          apiKey: alnum(8, 40),
          region: maybe(fc.constantFrom("us", "eu")),
          priority: maybe(fc.constantFrom("P1", "P3", "P5")),
          apiUrl: maybe(baseUrl),
        }),
      }),
      fc.record({
        name: displayName,
        type: fc.constantFrom("teams", "discord"),
        config: fc.record({ webhookUrl: httpUrl }),
      }),
      fc.record({
        name: displayName,
        type: fc.constant("telegram"),
        config: fc.record({
          botToken: fc.tuple(fc.integer({ min: 1, max: 9_999_999_999 }), alnum(35, 40)).map(([id, t]) => `${id}:${t}`),
          chatId: fc.oneof(
            fc.integer({ min: -1_000_000_000_000, max: 1_000_000_000 }).map(String),
            fc.stringMatching(/^@[A-Za-z][A-Za-z0-9_]{4,20}$/),
          ),
          apiUrl: maybe(baseUrl),
        }),
      }),
    ),
    events,
    maybe(fc.boolean()),
  )
  .map(([p, ev, degraded]) =>
    strip({
      ...p,
      config: strip(p.config as Props),
      events: ev,
      // With `events` written, `notifyDegraded` may only repeat what they say.
      notifyDegraded: ev === undefined ? degraded : degraded === undefined ? undefined : ev.includes("degraded"),
    }),
  );

/** Valid StatusPage inputs; `monitorIds` from existing monitors. */
export function statusPageInputs(monitorIds: readonly string[]): fc.Arbitrary<Props> {
  return fc
    .record({
      slug: fc.stringMatching(/^[a-z0-9][a-z0-9-]{2,40}$/),
      title: displayName,
      description: maybe(fc.oneof(fc.constant(""), fc.string({ unit: "grapheme", maxLength: 80 }))),
      monitorIds: maybe(setOf(monitorIds, 10)),
    })
    .map(strip);
}

function strip(p: Props): Props {
  return Object.fromEntries(Object.entries(p).filter(([, v]) => v !== undefined));
}
