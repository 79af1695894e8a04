import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { MASK, SecretMask } from "../../server/secret-mask";

/** Characters that change between spellings (quotes, backslash, space, `&`, `%`, `+`, `<`, non-ASCII) and plain ones. */
const TRICKY = [..."\"'\\ &%+<>/=?#:;~"];
const PLAIN = [..."abcXYZ019-_."];
const WIDE = [..."éü€漢🐴"];

/** A secret of 6..24 characters, mixed from the sets above, never holding the mask's `*`. */
const secret = fc
  .array(fc.oneof(fc.constantFrom(...TRICKY), fc.constantFrom(...PLAIN), fc.constantFrom(...WIDE)), {
    minLength: 6,
    maxLength: 24,
  })
  .map((chars) => chars.join(""));
/** Text around a spelling: plain words, so that it cannot itself spell the secret. */
const around = fc.stringMatching(/^[a-z ]{0,20}$/);

const html = (s: string) =>
  s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

/** The spellings a check, a browser or a receiver prints a value in, each as its printer writes it. */
const PRINTERS: Record<string, (s: string) => string> = {
  "as is": (s) => s,
  'JSON-escaped (Playwright\'s Received: "…")': (s) => JSON.stringify(s).slice(1, -1),
  "JSON-escaped, ASCII only": (s) =>
    JSON.stringify(s)
      .slice(1, -1)
      .replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
  encodeURIComponent: (s) => encodeURIComponent(s),
  "URL-encoded with + for spaces": (s) => encodeURIComponent(s).replace(/%20/g, "+"),
  "form encoding (URLSearchParams)": (s) => new URLSearchParams({ q: s }).toString().slice(2),
  encodeURI: (s) => encodeURI(s),
  "percent-encoded, lower-case hex": (s) => encodeURIComponent(s).replace(/%[0-9A-F]{2}/g, (h) => h.toLowerCase()),
  "HTML-escaped": html,
  "base64 of the whole value": (s) => Buffer.from(s).toString("base64"),
  "base64url of the whole value": (s) => Buffer.from(s).toString("base64url"),
};

describe("SecretMask: one secret in every spelling a check can print", () => {
  for (const [name, print] of Object.entries(PRINTERS)) {
    it(`masks a secret written ${name}, inside any text`, () => {
      fc.assert(
        fc.property(secret, around, around, (s, before, after) => {
          const spelled = print(s);
          const out = new SecretMask([s]).mask(`${before}${spelled}${after}`);
          expect(out).not.toContain(spelled);
          expect(out).not.toContain(s);
          expect(out).toContain(MASK);
        }),
        { numRuns: 300 },
      );
    });
  }

  it("masks the password of a Basic header (`user:secret` in base64), whatever the user", () => {
    fc.assert(
      fc.property(secret, fc.stringMatching(/^[a-z0-9.@]{0,12}$/), (s, user) => {
        const token = Buffer.from(`${user}:${s}`).toString("base64");
        const out = new SecretMask([s]).mask(`request failed: authorization: Basic ${token} was refused`);
        expect(out).not.toContain(token);
        expect(out).toContain("Basic ****");
      }),
      { numRuns: 300 },
    );
  });

  it("masks base64 of a secret inside a longer encoded value, at each of the 3 byte alignments", () => {
    fc.assert(
      fc.property(secret, fc.uint8Array({ maxLength: 8 }), fc.uint8Array({ maxLength: 8 }), (s, pre, post) => {
        const encoded = Buffer.concat([pre, Buffer.from(s), post]).toString("base64");
        const out = new SecretMask([s]).mask(`cookie=${encoded};`);
        // Whatever is left decodes, at any start, to no copy of the secret.
        const left = out.split(MASK).join("");
        for (let at = 0; at < 4; at++) {
          expect(Buffer.from(left.slice(at), "base64").includes(Buffer.from(s))).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
  });

  it("masks every secret of several in a text that holds each in another spelling", () => {
    fc.assert(
      fc.property(fc.uniqueArray(secret, { minLength: 2, maxLength: 4 }), (secrets) => {
        const printers = Object.values(PRINTERS);
        const text = secrets
          .map((s, i) => `v${i}=${(printers[i % printers.length] as (s: string) => string)(s)}`)
          .join(" ");
        const out = new SecretMask(secrets).mask(text);
        for (const s of secrets) expect(out).not.toContain(s);
      }),
      { numRuns: 200 },
    );
  });

  it("masks the end of a value cut short, and leaves text without secrets as it is", () => {
    const mask = new SecretMask(['Tr0ub4dor&3 "horse" \\ x']);
    expect(mask.mask('Received: "Tr0ub4dor&3 \\"horse\\" \\\\ x"')).toBe('Received: "****"');
    expect(mask.mask("?token=Tr0ub4dor%263%20%22horse%22%20%5C%20x&a=1")).toBe("?token=****&a=1");
    expect(mask.mask("found: Tr0ub4d")).toBe("found: ****");
    expect(mask.mask("all fine")).toBe("all fine");
    expect(mask.maskDeep({ a: ["x Tr0ub4dor&amp;3 &quot;horse&quot; \\ x"], n: 1, b: null })).toEqual({
      a: ["x ****"],
      n: 1,
      b: null,
    });
  });
});
