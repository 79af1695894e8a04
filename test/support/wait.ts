/** Polls `read` every 25 ms until `wanted(value)`; answers the milliseconds it took (fails past `limitMs`). */
export async function shownWithin<T>(
  read: () => Promise<T>,
  wanted: (value: T) => boolean,
  limitMs: number,
): Promise<number> {
  const from = Date.now();
  for (;;) {
    if (wanted(await read())) return Date.now() - from;
    if (Date.now() - from > limitMs) throw new Error(`not shown within ${limitMs} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
