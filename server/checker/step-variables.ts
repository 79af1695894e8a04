import { JSONPath } from "jsonpath-plus";
import { RE2JS } from "re2js";
import { MAX_VARIABLE_CHARS, type StoredExtraction, VARIABLE_USE } from "../../api";
import { SecretMask } from "../secret-mask";
import type { HttpExchange } from "./http-exchange";

export { MASK } from "../secret-mask";

/**
 * The variables of one multi-step run: the monitor's (all secret), then each step's extractions,
 * and the masking of every secret value in what the run reports.
 */
export class RunVariables {
  private readonly values = new Map<string, string>();
  private readonly secrets = new Set<string>();
  private masker?: SecretMask;

  constructor(variables: Readonly<Record<string, string>>) {
    for (const [name, value] of Object.entries(variables)) this.set(name, value, true);
  }

  /** `text` with each `{{name}}` replaced; throws naming the first variable that has no value. */
  fill(text: string): string {
    return text.replace(VARIABLE_USE, (_, name: string) => {
      const value = this.values.get(name);
      if (value === undefined)
        throw Object.assign(
          new Error(`{{${name}}} has no value (the step that extracts it did not run or found nothing)`),
          { code: "ERR_STEP_VARIABLE" },
        );
      return value;
    });
  }

  /** Keeps the values `extract` reads from a response; the names it found nothing for. */
  extract(extract: readonly StoredExtraction[], res: HttpExchange): string[] {
    const missing: string[] = [];
    for (const e of extract) {
      const value = read(e, res);
      if (value === undefined) missing.push(e.name);
      else this.set(e.name, value.slice(0, MAX_VARIABLE_CHARS), e.secret);
    }
    return missing;
  }

  /** `text` with every secret value replaced by `****`, in every spelling (see ../secret-mask.ts). */
  mask(text: string): string;
  mask(text: string | null): string | null;
  mask(text: string | null): string | null {
    this.masker ??= new SecretMask(this.secrets);
    return this.masker.mask(text);
  }

  private set(name: string, value: string, secret: boolean): void {
    this.values.set(name, value);
    if (secret && value !== "" && !this.secrets.has(value)) {
      this.secrets.add(value);
      this.masker = undefined;
    }
  }
}

/** The value an extraction reads, as text; undefined when the response has none. */
function read(e: StoredExtraction, res: HttpExchange): string | undefined {
  switch (e.source) {
    case "status_code":
      return String(res.status_code);
    case "headers":
      return res.headers[(e.property ?? "").toLowerCase()];
    case "text_body": {
      if (res.body === null) return undefined;
      // RE2: linear in the input, no backtracking.
      const m = RE2JS.compile(e.property ?? "").matcher(res.body);
      if (!m.find()) return undefined;
      return m.groupCount() >= 1 ? (m.group(1) ?? undefined) : (m.group() ?? undefined);
    }
    case "json_body": {
      if (res.body === null) return undefined;
      let json: unknown;
      try {
        json = JSON.parse(res.body);
      } catch {
        return undefined;
      }
      // eval: false — filter and script expressions are refused, never run.
      const found = JSONPath({ path: e.property ?? "$", json: json as object, eval: false, wrap: true }) as unknown[];
      if (found.length === 0 || found[0] === undefined || found[0] === null) return undefined;
      return typeof found[0] === "string" ? found[0] : JSON.stringify(found[0]);
    }
  }
}
