/**
 * Response-time histograms of the daily roll-up: exact below one second, then buckets 1% wide,
 * so a p95 over 90 days reads 90 small rows instead of sorting a quarter-million heartbeats.
 */
const EXACT_BELOW_MS = 1000;
const GROWTH = 1.01;

/** The bucket a response time falls in, named by its upper bound in milliseconds. */
export function bucketOf(ms: number): number {
  if (ms < EXACT_BELOW_MS) return Math.max(0, Math.round(ms));
  const k = Math.ceil(Math.log(ms / EXACT_BELOW_MS) / Math.log(GROWTH));
  return Math.round(EXACT_BELOW_MS * GROWTH ** k);
}

export type Histogram = Record<string, number>;

/** The `q` quantile (nearest rank) of merged histograms, or null when they are empty. */
export function quantile(histograms: readonly Histogram[], q: number): number | null {
  const merged = new Map<number, number>();
  for (const h of histograms)
    for (const [bucket, n] of Object.entries(h)) merged.set(Number(bucket), (merged.get(Number(bucket)) ?? 0) + n);
  const total = [...merged.values()].reduce((a, b) => a + b, 0);
  if (total === 0) return null;
  const rank = Math.ceil(q * total);
  let seen = 0;
  for (const bucket of [...merged.keys()].sort((a, b) => a - b)) {
    seen += merged.get(bucket) as number;
    if (seen >= rank) return bucket;
  }
  return null;
}
