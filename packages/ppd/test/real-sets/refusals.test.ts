import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/index.js';
import type { SetOutcome } from '../../src/evaluate/run-sets.js';
import { expectBars, present, runSets } from './real-sets.js';

/**
 * Photos that are no specimen photo: field photos of cassava leaves on the plant (field-leaves/, and
 * leaves/cropsurv_natural_* and cropsurv_field_leaf_on_plant) and a basket of whole roots.
 */
let engine: Engine | undefined;
let outcomes: SetOutcome[] = [];

describe.skipIf(!present)('real sets: refusals', () => {
  beforeAll(async () => {
    ({ engine, outcomes } = await runSets(['refusals']));
  }, 300_000);
  afterAll(async () => {
    await engine?.close();
  });

  it('refuses every field photo and the basket of whole roots, each with a reason', () => {
    expect(outcomes.length).toBeGreaterThanOrEqual(21);
    expectBars('refusals', outcomes);
    for (const o of outcomes) {
      expect(['not_a_specimen_photo', 'no_specimen_found'], o.name).toContain(o.error_code);
      expect(o.error_message ?? '', o.name).toMatch(/\w{3,}.*\w{3,}/);
    }
  });
});
