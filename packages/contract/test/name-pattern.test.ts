import { describe, expect, it } from 'vitest';
import { compileNamePattern, fitName, fitNames, suggestNamePattern, type CompiledNamePattern } from '../src/index.js';

const DEFAULT = '{genotype}_{rep}_{dah}d_{root}';
const compiled = (pattern: string): CompiledNamePattern => {
  const c = compileNamePattern(pattern);
  if (!c.ok) throw new Error(c.problem);
  return c;
};

describe('why a name does not fit a pattern (issue 25 item 5)', () => {
  it('reads a name that fits, typed as the server stores it', () => {
    expect(fitName(compiled(DEFAULT), 'TME419_2_7d_R1.jpg')).toEqual({
      ok: true,
      metadata: { genotype: 'TME419', rep: 2, dah: 7, root: 'R1' },
    });
  });

  it('names the field, what it expects and what the name has when a value does not fit', () => {
    expect(fitName(compiled(DEFAULT), 'TME419_R1_7d_root1.jpg')).toEqual({
      ok: false,
      mismatch: { kind: 'value', field: 'rep', found: 'R1', expected: 'number' },
    });
    expect(fitName(compiled('{genotype}_{harvest_date}'), 'TME419_2026-13-01.jpg')).toEqual({
      ok: false,
      mismatch: { kind: 'value', field: 'harvest_date', found: '2026-13-01', expected: 'date' },
    });
  });

  it('says which written text is missing after which field, and what the name has there', () => {
    expect(fitName(compiled(DEFAULT), 'TME419_1_7_R1.jpg')).toEqual({
      ok: false,
      mismatch: { kind: 'literal', expected: 'd_', after: 'dah', found: '7_R1' },
    });
    expect(fitName(compiled('IMG_{plot}'), 'DSC_0042.jpg')).toEqual({
      ok: false,
      mismatch: { kind: 'literal', expected: 'IMG_', after: null, found: 'DSC_0042' },
    });
  });

  it('says when the name ends before a field, or goes on after the pattern', () => {
    expect(fitName(compiled(DEFAULT), 'TME419_1_7d_.jpg')).toEqual({
      ok: false,
      mismatch: { kind: 'short', field: 'root' },
    });
    expect(fitName(compiled('{genotype}_{rep}d'), 'TME419_2d_extra.jpg')).toEqual({
      ok: false,
      mismatch: { kind: 'extra', found: '_extra' },
    });
  });

  it('gives null for a pattern that is not valid', () => {
    expect(fitNames('{genotype', ['a.jpg'])).toBeNull();
    expect(fitNames('{genotype}', ['a.jpg'])).toEqual([{ ok: true, metadata: { genotype: 'a' } }]);
  });
});

describe('a pattern suggested from the names (issue 25 item 5)', () => {
  const ISSUE = ['TME419_R1_7d_root1.jpg', 'TME419_R2_7d_root2.jpg', 'TME693_R1_14d_root1.jpg'];

  it('keeps the current pattern’s fields and moves the text around a number into the pattern', () => {
    expect(suggestNamePattern(ISSUE, DEFAULT)).toEqual({ pattern: '{genotype}_R{rep}_{dah}d_{root}', fits: 3 });
    // One name is enough.
    expect(suggestNamePattern(['TME419_R1_7d_root1.jpg'], DEFAULT)).toEqual({
      pattern: '{genotype}_R{rep}_{dah}d_{root}',
      fits: 1,
    });
  });

  it('names the parts by what they look like without a pattern to start from', () => {
    expect(suggestNamePattern(ISSUE)?.pattern).toBe('{genotype}_R{rep}_{dah}d_{root}');
    expect(suggestNamePattern(['TME419_2_7d_R1.jpg', 'TME693_1_14d_R2.jpg'])?.pattern).toBe(
      '{genotype}_{rep}_{dah}d_{root}',
    );
    expect(suggestNamePattern(['IMG-TME419-2026-11-02.jpg', 'IMG-IBA30572-2026-11-03.jpg'])).toEqual({
      pattern: 'IMG-{genotype}-{harvest_date}',
      fits: 2,
    });
  });

  it('suggests for the names cut alike; the others are counted as not fitting', () => {
    expect(suggestNamePattern([...ISSUE, 'notes.jpg'], DEFAULT)).toEqual({
      pattern: '{genotype}_R{rep}_{dah}d_{root}',
      fits: 3,
    });
  });

  it('falls back to its own reading when the current pattern has other parts than the names', () => {
    expect(suggestNamePattern(['P12_3.jpg', 'P13_1.jpg'], DEFAULT)?.pattern).toBe('P{plot}_{rep}');
  });

  it('gives nothing without names', () => {
    expect(suggestNamePattern([], DEFAULT)).toBeNull();
  });
});
