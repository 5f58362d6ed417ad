import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CBSD_HELDOUT, CBSD_ROOTS_CROPS, CBSD_TRAIN, cbsdSplitOf } from '../../src/evaluate/cbsd-labelled-split.js';
import { present, REAL } from './real-sets.js';

describe('the cbsd-labelled split', () => {
  it('is what its rule gives, the parts are disjoint, and about a third is held out', () => {
    for (const f of CBSD_HELDOUT) expect(cbsdSplitOf(f), f).toBe('heldout');
    for (const f of CBSD_TRAIN) expect(cbsdSplitOf(f), f).toBe('train');
    for (const f of CBSD_ROOTS_CROPS) expect(cbsdSplitOf(f), f).toBe('roots');
    const all = [...CBSD_HELDOUT, ...CBSD_TRAIN, ...CBSD_ROOTS_CROPS];
    expect(new Set(all).size).toBe(all.length);
    expect(CBSD_HELDOUT.length / (CBSD_HELDOUT.length + CBSD_TRAIN.length)).toBeCloseTo(1 / 3, 1);
  });

  it.skipIf(!present)("covers every crop of cbsd-labelled, and its roots crops are roots/'s own files", () => {
    const dir = path.join(REAL, 'cbsd-labelled');
    const labels = JSON.parse(fs.readFileSync(path.join(dir, 'labels.json'), 'utf8')) as { crops: { file: string }[] };
    expect(labels.crops.map((c) => c.file).sort()).toEqual(
      [...CBSD_HELDOUT, ...CBSD_TRAIN, ...CBSD_ROOTS_CROPS].sort(),
    );
    for (const f of CBSD_ROOTS_CROPS) {
      const roots = path.join(REAL, 'roots', f.replace(/^cbsd_0/, 'cbsd_test_'));
      expect(fs.readFileSync(path.join(dir, f)).equals(fs.readFileSync(roots)), f).toBe(true);
    }
  });
});
