import { httpCheck } from "./http";
import type { MonitorType } from "./monitor-type";

/** Keyword monitors: an HTTP check whose body must contain the keyword (case-insensitive unless asked). */
export const keywordType: MonitorType = {
  name: "keyword",
  probes: true,
  check: (monitor, ctx, now) => {
    const keyword = monitor.keyword;
    if (keyword === null) return httpCheck(monitor, ctx, now);
    const found = monitor.keyword_case_sensitive
      ? (body: string) => body.includes(keyword)
      : (body: string) => body.toLowerCase().includes(keyword.toLowerCase());
    return httpCheck(monitor, ctx, now, (body) => (found(body) ? null : `keyword "${keyword}" not found`));
  },
};
