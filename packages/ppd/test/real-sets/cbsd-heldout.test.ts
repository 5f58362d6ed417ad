import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/index.js';
import { CBSD_HELDOUT } from '../../src/evaluate/cbsd-labelled-split.js';
import { summarise } from '../../src/evaluate/compare.js';
import type { SetOutcome } from '../../src/evaluate/run-sets.js';
import { BARS, expectBars, present, runSets } from './real-sets.js';

/**
 * The held-out part of cbsd-labelled (45 single-slice CBSD crops with the source's per-pixel labels, chosen by
 * a hash of the name: src/evaluate/cbsd-labelled-split.ts); nothing is trained or tuned on them. Their labels
 * count the dark peel ring as necrotic.
 */
let engine: Engine | undefined;
let outcomes: SetOutcome[] = [];

describe.skipIf(!present)('real sets: cbsd-labelled held-out', () => {
  beforeAll(async () => {
    ({ engine, outcomes } = await runSets(['cbsd-heldout']));
  }, 300_000);
  afterAll(async () => {
    await engine?.close();
  });

  it(`finds >= ${BARS.heldoutFound * 100} % of the held-out slices and reads them with MAE <= ${BARS.heldoutMae}`, () => {
    expect(outcomes).toHaveLength(CBSD_HELDOUT.length);
    expect(summarise(outcomes).wrongRefusals).toBe(0);
    expectBars('cbsd-heldout', outcomes);
  });
});
