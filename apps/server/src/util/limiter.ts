/** Limits how many async calls run at once (images in flight in the queue, decodes in uploads). */
export type Limit = <T>(fn: () => Promise<T>) => Promise<T>;

export function createLimit(slots: number): Limit {
  let active = 0;
  const waiting: (() => void)[] = [];
  // A released slot passes straight to the next waiter, so a newcomer can never jump the queue.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else active--;
  };
  return async <T>(fn: () => Promise<T>): Promise<T> => {
    if (active >= slots) await new Promise<void>((resolve) => waiting.push(resolve));
    else active++;
    try {
      return await fn();
    } finally {
      release();
    }
  };
}

/**
 * Runs `fn` over `items` with at most `concurrency` calls at once. The first error stops further
 * items; it is thrown once the calls already running have finished (nothing is left running behind).
 */
export async function forEachLimit<T>(items: T[], concurrency: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | null = null;
  const lane = async () => {
    while (next < items.length && failure === null) {
      const item = items[next++] as T;
      try {
        await fn(item);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, lane));
  if (failure !== null) throw (failure as { error: unknown }).error;
}
