import { describe, expect, it } from 'vitest';
import { createLimit, forEachLimit } from '../src/util/limiter.js';

/** The queue's concurrency helpers: the slot limit holds, and a failure leaves nothing running. */
const tick = () => new Promise((r) => setImmediate(r));

describe('createLimit', () => {
  it('never runs more than its slots at once, and serves waiters in order', async () => {
    const limit = createLimit(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        limit(async () => {
          running++;
          peak = Math.max(peak, running);
          order.push(i);
          await tick();
          running--;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });
});

describe('forEachLimit', () => {
  it('stops taking items after an error and throws only when the running calls are done', async () => {
    const started: number[] = [];
    let finished = 0;
    const run = forEachLimit([1, 2, 3, 4, 5, 6], 2, async (n) => {
      started.push(n);
      await tick();
      if (n === 2) throw new Error('boom');
      await tick();
      finished++;
    });
    await expect(run).rejects.toThrow('boom');
    // 1 and 2 ran together; after the failure no new item starts, and 1 was let finish.
    expect(started).toEqual([1, 2]);
    expect(finished).toBe(1);
  });
});
