/** What a secret value is shown as in results, logs and errors. */
export const MASK = "****";
/** The shortest start of a secret masked at the end of a text cut short. */
const PARTIAL_MIN = 3;
/** The shortest run of base64 characters masked on its own: shorter ones are too likely by chance. */
const BASE64_MIN = 8;

const HTML_ENTITIES: Record<string, string[]> = {
  "&": ["&amp;", "&#38;", "&#x26;"],
  "<": ["&lt;", "&#60;", "&#x3c;", "&#x3C;"],
  ">": ["&gt;", "&#62;", "&#x3e;", "&#x3E;"],
  '"': ["&quot;", "&#34;", "&#x22;"],
  "'": ["&#39;", "&#x27;", "&apos;"],
};

/** `s` with each character that has entities written with the `i`-th of them (or the last). */
const htmlEscape = (s: string, i: number) =>
  s.replace(/[&<>"']/g, (c) => {
    const names = HTML_ENTITIES[c] as string[];
    return names[Math.min(i, names.length - 1)] as string;
  });

/** JSON string escaping without the quotes; `ascii` also escapes every non-ASCII character as `\uXXXX`. */
function jsonEscape(s: string, ascii: boolean): string {
  const json = JSON.stringify(s).slice(1, -1);
  return ascii ? json.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`) : json;
}

/** Percent-encodings with the hex digits lower-cased (`%2b`), as some clients write them. */
const lowerHex = (s: string) => s.replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase());

/**
 * The base64 characters that depend on the secret's bytes alone, for the secret starting at each
 * of the 3 byte alignments inside a longer encoded value (`user:secret` in a Basic header): the
 * characters that also hold bits of the bytes around it differ with them, the rest are fixed.
 */
function base64Runs(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const out: string[] = [];
  for (const offset of [0, 1, 2]) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString("base64");
    const run = encoded.slice(Math.ceil((8 * offset) / 6), Math.floor((8 * (offset + bytes.length)) / 6));
    if (run.length >= BASE64_MIN) out.push(run, run.replace(/\+/g, "-").replace(/\//g, "_"));
    // The whole encoding when the secret ends the value (padding and all).
    if (offset === 0 && encoded.length >= BASE64_MIN)
      out.push(encoded, encoded.replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return out;
}

/**
 * Every spelling in which a check, a browser or a receiver may print `secret`: as is,
 * JSON-escaped (also with `\uXXXX` for non-ASCII), URL-encoded (`encodeURIComponent`, `encodeURI`,
 * form encoding with `+`, lower-case hex), HTML-escaped (named and numeric entities), and base64
 * (standard and URL-safe, at the 3 byte alignments).
 */
export function spellings(secret: string): { text: string[]; base64: string[] } {
  const component = encodeURIComponent(secret);
  const form = new URLSearchParams({ v: secret }).toString().slice(2);
  const text = [
    secret,
    jsonEscape(secret, false),
    jsonEscape(secret, true),
    component,
    component.replace(/%20/g, "+"),
    encodeURI(secret),
    form,
    ...[0, 1, 2].map((i) => htmlEscape(secret, i)),
    // JSON of the HTML-escaped or URL-encoded spelling, as a result that quotes a page or a URL shows it.
    jsonEscape(htmlEscape(secret, 0), false),
  ];
  const withLower = text.flatMap((t) => (/%[0-9A-F]{2}/.test(t) ? [t, lowerHex(t)] : [t]));
  return { text: [...new Set(withLower)].filter((t) => t !== ""), base64: [...new Set(base64Runs(secret))] };
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `Basic <base64>` (an Authorization header's credentials): decoded to be judged as a whole. */
const BASIC = /(Basic\s+)([A-Za-z0-9+/_-]{4,}={0,2})/gi;

/**
 * Masks a set of secret values in any text, in every spelling `spellings` lists: the one masker
 * of the server (check results, errors, logs, screenshots' evidence, channel delivery failures).
 */
export class SecretMask {
  private readonly secrets: string[];
  private readonly pattern: RegExp | null;
  private readonly partials: string[];

  constructor(values: Iterable<string>) {
    this.secrets = [...new Set([...values].filter((v) => v !== ""))];
    const all = this.secrets.flatMap((s) => {
      const { text, base64 } = spellings(s);
      return [...text, ...base64];
    });
    // Longest first: no part of a longer spelling shows after a shorter one was masked.
    const sorted = [...new Set(all)].sort((a, b) => b.length - a.length);
    this.pattern = sorted.length === 0 ? null : new RegExp(sorted.map(escapeRegExp).join("|"), "g");
    this.partials = this.secrets.flatMap((s) => spellings(s).text).sort((a, b) => b.length - a.length);
  }

  /** Whether there is nothing to mask. */
  get empty(): boolean {
    return this.pattern === null;
  }

  /** `text` with every spelling of every secret replaced by `****`. */
  mask(text: string): string;
  mask(text: string | null): string | null;
  mask(text: string | null): string | null {
    if (text === null || this.pattern === null) return text;
    let out = text.replace(BASIC, (all, scheme: string, token: string) =>
      this.revealedBy(token) ? `${scheme}${MASK}` : all,
    );
    out = out.replace(this.pattern, MASK);
    // A value cut short (assertions keep 200 characters of what they found) ends in part of a secret.
    for (const secret of this.partials) {
      for (let n = secret.length - 1; n >= PARTIAL_MIN; n--) {
        if (out.endsWith(secret.slice(0, n))) return out.slice(0, out.length - n) + MASK;
      }
    }
    return out;
  }

  /** `value` with every string in it (deeply, in arrays and plain objects) masked; other values kept. */
  maskDeep<T>(value: T): T {
    if (this.pattern === null) return value;
    if (typeof value === "string") return this.mask(value) as T;
    if (Array.isArray(value)) return value.map((v: unknown) => this.maskDeep(v)) as T;
    if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.maskDeep(v)])) as T;
    }
    return value;
  }

  private revealedBy(token: string): boolean {
    const decoded = Buffer.from(token.replace(/-/g, "+").replace(/_/g, "/"), "base64").toString("utf8");
    return this.secrets.some((s) => decoded.includes(s));
  }
}
