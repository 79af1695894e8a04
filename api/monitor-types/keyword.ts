import { f, type MonitorTypeDescriptor } from "../monitor-type";
import { HTTP_DOC_FIELDS, http, httpRules, httpUrl, httpViolations, probeUrl } from "./http";

/** An HTTP(S) request whose body must contain a keyword. */
export const keyword = {
  order: 2,
  url: probeUrl(),
  // As http, with the keyword required.
  fields: () => ({ ...http.fields(), keyword: f.keyword.unwrap() }),
  rules: httpRules,
  checkUrl: httpUrl("keyword"),
  violations: (m) => [
    ...httpViolations(m),
    ...(m.keyword === null ? [{ field: "keyword", message: "is required for keyword monitors" }] : []),
  ],
  doc: {
    url: "`http(s)://…`",
    fields: ["keyword", "keywordCaseSensitive", ...HTTP_DOC_FIELDS],
    up: "as http, and the body contains `keyword`",
  },
} satisfies MonitorTypeDescriptor;
