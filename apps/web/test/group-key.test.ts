import { describe, expect, it } from 'vitest';
import { defaultGroupField, groupByFields, groupFilterParams, groupKeyText } from '../src/lib/groups/group-key';

/** The group summary's key helpers: which fields a summary groups by, how a key reads, which filter lists it. */
const label = (f: string) => ({ genotype: 'Genotype', dah: 'Days after harvest' })[f] ?? f;

describe('group keys', () => {
  it('groups by genotype until the researcher picks, else by the most used field', () => {
    expect(defaultGroupField(['plot', 'genotype', 'dah'])).toBe('genotype');
    expect(defaultGroupField(['plot', 'dah'])).toBe('plot');
    expect(defaultGroupField([])).toBeNull();
  });

  it('takes a second field only when it is another one', () => {
    expect(groupByFields('genotype', 'dah')).toEqual(['genotype', 'dah']);
    expect(groupByFields('genotype', 'genotype')).toEqual(['genotype']);
    expect(groupByFields('genotype', null)).toEqual(['genotype']);
    expect(groupByFields(null, 'dah')).toEqual([]);
  });

  it('reads a key as a line, naming the fields when there are two or when asked', () => {
    expect(groupKeyText({ genotype: 'TME419' }, label, '(none)')).toBe('TME419');
    expect(groupKeyText({ genotype: 'TME419' }, label, '(none)', 'always')).toBe('Genotype TME419');
    expect(groupKeyText({ genotype: 'TME419', dah: 7 }, label, '(none)')).toBe(
      'Genotype TME419 · Days after harvest 7',
    );
    expect(groupKeyText({ genotype: 'TME419', dah: 7 }, label, '(none)', 'never')).toBe('TME419 · 7');
    expect(groupKeyText({ genotype: null, dah: 0 }, label, '(none)', 'never')).toBe('(none) · 0');
  });

  it('lists exactly one group: a meta filter per value, meta_missing for the fields it lacks', () => {
    expect(groupFilterParams({ genotype: 'TME419', dah: 7 })).toEqual({ 'meta.genotype': 'TME419', 'meta.dah': '7' });
    expect(groupFilterParams({ genotype: null, dah: 7 })).toEqual({ 'meta.dah': '7', meta_missing: 'genotype' });
    expect(groupFilterParams({ genotype: null, dah: null })).toEqual({ meta_missing: 'genotype,dah' });
  });
});
