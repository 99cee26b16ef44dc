// Many node calls, a few at a time: a list of hundreds (NFT families, token IDs, blocks) is neither
// asked one by one nor all at once.

/** `fn` over `items`, at most `limit` at a time (a node is not asked hundreds of calls at once). */
export async function mapLimited<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}
