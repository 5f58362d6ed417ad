import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/index.js';
import { LEAF_BY_EYE } from '../../src/evaluate/real-sets.js';
import type { SetOutcome } from '../../src/evaluate/run-sets.js';
import { BARS, expectBars, present, runSets } from './real-sets.js';

/**
 * Detached cassava leaflets on white paper, running past the frame (real-photos/leaves, CC BY 3.0, Mobile
 * Crop Surveillance project, Makerere University): each photo's reading against the README's by-eye value.
 */
let engine: Engine | undefined;
let outcomes: SetOutcome[] = [];

describe.skipIf(!present)('real sets: detached leaves', () => {
  beforeAll(async () => {
    ({ engine, outcomes } = await runSets(['leaves']));
  }, 300_000);
  afterAll(async () => {
    await engine?.close();
  });

  it(`scores every detached leaf photo (none refused); healthy leaves read < ${BARS.healthyLeafBelow}, mosaic within ${BARS.mosaicLeafWithin} of the by-eye value`, () => {
    expect(outcomes).toHaveLength(Object.keys(LEAF_BY_EYE).length);
    expectBars('leaves', outcomes);
  });

  it('takes what it scores on a leaf photo for a leaf (specimen kind auto)', () => {
    for (const o of outcomes.filter((x) => x.error_code === null))
      expect(new Set(o.kinds), o.name).toEqual(new Set(['leaf']));
  });
});
