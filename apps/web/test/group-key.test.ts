import { describe, expect, it } from 'vitest';
import {
  defaultGroupField,
  groupByFields,
  groupKeyText,
  groupMetaParams,
  missingFields,
} from '../src/lib/groups/group-key';

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

  it('lists a group with the meta filter of each value, and names the fields it lacks', () => {
    expect(groupMetaParams({ genotype: 'TME419', dah: 7 })).toEqual({ 'meta.genotype': 'TME419', 'meta.dah': '7' });
    expect(missingFields({ genotype: 'TME419', dah: 7 })).toEqual([]);
    // Without a value there is no filter for that field: the key is not fully listable.
    expect(groupMetaParams({ genotype: null, dah: 7 })).toEqual({ 'meta.dah': '7' });
    expect(missingFields({ genotype: null, dah: 7 })).toEqual(['genotype']);
  });
});
