import { AppstoreOutlined, DownloadOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { Button, Input, Segmented, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../../../lib/format';
import { useLiveSearch } from '../../../lib/use-live-search';
import { MetadataFilter } from '../../../lib/metadata-filter';
import type { ResultFilter } from '../api/get-results-page';
import { NeedsReviewFilter } from './review/needs-review-filter';

export type ResultsView = 'grid' | 'list';

/** Typing pauses this long before the search applies. */
interface Props {
  filter: ResultFilter;
  onFilterChange: (filter: ResultFilter) => void;
  count: number | null;
  /** results of the filter without a PPD (not scored), named beside the count */
  unscored: number;
  view: ResultsView;
  onViewChange: (view: ResultsView) => void;
  onExport: () => void;
  /** an export is being fetched */
  exporting: boolean;
}

/** Search by image name, severity, a sample field's value, results count, grid/list toggle and CSV export. */
export function ResultsFilterBar({
  filter,
  onFilterChange,
  count,
  unscored,
  view,
  onViewChange,
  onExport,
  exporting,
}: Props) {
  const { t } = useTranslation('results');
  // Live search (issue 15 item 10): the filter follows the typing once it pauses, as on Images and Tasks.
  const [input, setInput] = useLiveSearch(filter, onFilterChange);
  return (
    <div className="results-filter-bar">
      <Input.Search
        allowClear
        className="results-search"
        placeholder={t('filter.search')}
        aria-label={t('filter.search')}
        value={input}
        onChange={(e) => setInput(e.target.value)}
        onSearch={(search) => {
          setInput(search);
          if (search !== filter.search) onFilterChange({ ...filter, search });
        }}
      />
      <Select<ResultFilter['severity']>
        className="results-severity"
        aria-label={t('filter.severity')}
        data-testid="results-severity"
        value={filter.severity}
        onChange={(severity) => onFilterChange({ ...filter, severity })}
        options={[
          { value: 'all', label: t('filter.all') },
          { value: 'healthy', label: t('filter.healthy') },
          { value: 'mild', label: t('filter.mild') },
          { value: 'severe', label: t('filter.severe') },
        ]}
      />
      <NeedsReviewFilter filter={filter} onFilterChange={onFilterChange} />
      <MetadataFilter value={filter.meta ?? null} onChange={(meta) => onFilterChange({ ...filter, meta })} />
      <span className="results-count" data-testid="results-count">
        {count === null ? '' : t('filter.count', { count, formatted: formatCount(count) })}
        {count !== null && unscored > 0
          ? t('filter.unscored', { count: unscored, formatted: formatCount(unscored) })
          : ''}
      </span>
      <Segmented<ResultsView>
        value={view}
        onChange={onViewChange}
        options={[
          { value: 'grid', icon: <AppstoreOutlined />, title: t('filter.grid') },
          { value: 'list', icon: <UnorderedListOutlined />, title: t('filter.list') },
        ]}
      />
      <Button icon={<DownloadOutlined />} onClick={onExport} loading={exporting} data-testid="results-export">
        {t('export.button')}
      </Button>
    </div>
  );
}
