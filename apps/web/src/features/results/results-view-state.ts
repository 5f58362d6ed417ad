import { METADATA_FIELD_PATTERN } from '@cassavascope/contract';
import type { GroupKey } from '../../lib/groups/group-key';
import type { GroupFields } from '../../lib/groups/group-summary';
import type { MetadataFilterValue } from '../../lib/metadata-params';
import type { ResultFilter } from './api/get-results-page';
import type { ResultsListView, ResultsView } from './components/results-filter-bar';

/** What Results keeps across a reload: the filters, the layout and the By group fields. */
export interface ResultsViewState {
  filter: ResultFilter;
  view: ResultsView;
  /** the list layout a picked group returns to (the one shown before "By group") */
  listView: ResultsListView;
  groupFields: GroupFields;
}

export const RESULTS_VIEW_KEY = 'cassavascope.results.view';

const SEVERITIES: readonly ResultFilter['severity'][] = ['all', 'healthy', 'mild', 'severe'];
const LIST_VIEWS: readonly ResultsListView[] = ['grid', 'list'];
const SEARCH_MAX = 200;

const record = (v: unknown): Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const fieldName = (v: unknown): string | null => (typeof v === 'string' && METADATA_FIELD_PATTERN.test(v) ? v : null);

function readMeta(v: unknown): MetadataFilterValue {
  const m = record(v);
  const field = fieldName(m.field);
  return field && typeof m.value === 'string' && m.value !== '' ? { field, value: m.value } : null;
}

/** A group's key: one or two fields, each a number, a text or null (the group without the field). */
function readGroup(v: unknown): GroupKey | null {
  const entries = Object.entries(record(v));
  if (entries.length < 1 || entries.length > 2) return null;
  const ok = entries.every(
    ([f, value]) =>
      fieldName(f) !== null &&
      (value === null || typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))),
  );
  return ok ? (Object.fromEntries(entries) as GroupKey) : null;
}

/** The saved state as far as it is readable; every part that is not reads as its default. */
export function readResultsViewState(saved: unknown): ResultsViewState {
  const s = record(saved);
  const f = record(s.filter);
  const taskId = typeof f.taskId === 'number' && Number.isSafeInteger(f.taskId) && f.taskId > 0 ? f.taskId : null;
  const listView = LIST_VIEWS.find((v) => v === s.listView) ?? 'grid';
  const fields = record(s.groupFields);
  return {
    filter: {
      taskId,
      search: typeof f.search === 'string' ? f.search.slice(0, SEARCH_MAX) : '',
      severity: SEVERITIES.find((v) => v === f.severity) ?? 'all',
      needsReview: f.needsReview === true,
      meta: readMeta(f.meta),
      group: readGroup(f.group),
    },
    view: s.view === 'groups' ? 'groups' : listView,
    listView,
    groupFields: { first: fieldName(fields.first), second: fieldName(fields.second) },
  };
}
