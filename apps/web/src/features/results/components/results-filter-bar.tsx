import {
  AppstoreOutlined,
  DotChartOutlined,
  DownloadOutlined,
  DownOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Button, Dropdown, Input, Segmented, Select, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { fieldLabel } from '../../../lib/field-label';
import { formatCount } from '../../../lib/format';
import { groupKeyText } from '../../../lib/groups/group-key';
import { useLiveSearch } from '../../../lib/use-live-search';
import { MetadataFilter } from '../../../lib/metadata-filter';
import type { ExportFormat } from '../api/export-results';
import type { ResultFilter } from '../api/get-results-page';
import { NeedsReviewFilter } from './review/needs-review-filter';

/** The result list's two layouts. */
export type ResultsListView = 'grid' | 'list';
/** The list, or the group summary ("By group": mean PPD per group of a sample field). */
export type ResultsView = ResultsListView | 'groups';

interface Props {
  filter: ResultFilter;
  onFilterChange: (filter: ResultFilter) => void;
  count: number | null;
  /** results of the filter without a PPD (not scored), named beside the count */
  unscored: number;
  view: ResultsView;
  onViewChange: (view: ResultsView) => void;
  /** the results' CSV, per image or per specimen; none in the "By group" view, which exports its own table */
  onExport?: (format: ExportFormat) => void;
  /** an export is being fetched */
  exporting: boolean;
}

/**
 * Search by image name, severity, a sample field's value, the group picked in "By group" (a tag that removes it),
 * results count, the grid / list / by-group switch and CSV export.
 */
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
      {filter.group ? (
        <Tag
          closable
          className="results-group-filter"
          onClose={() => onFilterChange({ ...filter, group: null })}
          data-testid="results-group-filter"
        >
          {t('filter.group', {
            group: groupKeyText(filter.group, (f) => fieldLabel(t, f), t('samples:no_value'), 'always'),
          })}
        </Tag>
      ) : null}
      <span className="results-count" data-testid="results-count">
        {count === null ? '' : t('filter.count', { count, formatted: formatCount(count) })}
        {count !== null && unscored > 0
          ? t('filter.unscored', { count: unscored, formatted: formatCount(unscored) })
          : ''}
      </span>
      <Segmented<ResultsView>
        value={view}
        onChange={onViewChange}
        data-testid="results-view"
        options={[
          { value: 'grid', icon: <AppstoreOutlined />, title: t('filter.grid') },
          { value: 'list', icon: <UnorderedListOutlined />, title: t('filter.list') },
          {
            value: 'groups',
            icon: <DotChartOutlined />,
            label: <span data-testid="results-view-groups">{t('filter.by_group')}</span>,
            title: t('filter.by_group_hint'),
          },
        ]}
      />
      {onExport ? (
        // One button, two files: per image (the seed's CSV) or per specimen (issue 25: boxes, both values, notes).
        <Dropdown
          trigger={['click']}
          menu={{
            onClick: ({ key }) => onExport(key as ExportFormat),
            items: [
              {
                key: 'results',
                label: (
                  <span className="results-export-option" data-testid="export-per-image">
                    <strong>{t('export.per_image')}</strong>
                    <small>{t('export.per_image_hint')}</small>
                  </span>
                ),
              },
              {
                key: 'specimens',
                label: (
                  <span className="results-export-option" data-testid="export-per-specimen">
                    <strong>{t('export.per_specimen')}</strong>
                    <small>{t('export.per_specimen_hint')}</small>
                  </span>
                ),
              },
            ],
          }}
        >
          <Button icon={<DownloadOutlined />} loading={exporting} data-testid="results-export">
            {t('export.button')} <DownOutlined />
          </Button>
        </Dropdown>
      ) : null}
    </div>
  );
}
