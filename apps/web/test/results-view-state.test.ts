import { describe, expect, it } from 'vitest';
import { readResultsViewState } from '../src/features/results/results-view-state';

const DEFAULT = {
  filter: { taskId: null, search: '', severity: 'all', needsReview: false, meta: null, group: null },
  view: 'grid',
  listView: 'grid',
  groupFields: { first: null, second: null },
};

/** What Results reads back after a reload: a saved view as it was, anything unreadable as the default. */
describe('readResultsViewState', () => {
  it('reads back a saved view whole', () => {
    const saved = {
      filter: {
        taskId: 12,
        search: 'TME',
        severity: 'mild',
        needsReview: true,
        meta: { field: 'genotype', value: 'TME419' },
        group: { genotype: 'TME419', dah: null },
      },
      view: 'groups',
      listView: 'list',
      groupFields: { first: 'genotype', second: 'dah' },
    };
    expect(readResultsViewState(JSON.parse(JSON.stringify(saved)))).toEqual(saved);
  });

  it('gives the default for nothing saved, or what is not a saved view', () => {
    for (const saved of [null, undefined, 'grid', 42, [], { filter: [] }]) {
      expect(readResultsViewState(saved)).toEqual(DEFAULT);
    }
  });

  it('drops each part that cannot be read and keeps the rest', () => {
    const read = readResultsViewState({
      filter: {
        taskId: -3,
        search: 7,
        severity: 'awful',
        needsReview: 'yes',
        meta: { field: 'bad name', value: 'x' },
        group: { a: 1, b: 2, c: 3 },
      },
      view: 'table',
      listView: 'list',
      groupFields: { first: 'genotype', second: 'x y' },
    });
    expect(read).toEqual({
      ...DEFAULT,
      view: 'list',
      listView: 'list',
      groupFields: { first: 'genotype', second: null },
    });
    expect(readResultsViewState({ filter: { taskId: 1.5, group: { dah: { n: 1 } } } }).filter).toEqual(DEFAULT.filter);
  });
});
