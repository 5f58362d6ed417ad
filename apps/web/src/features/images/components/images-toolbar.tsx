import {
  AppstoreOutlined,
  CheckSquareOutlined,
  CloudUploadOutlined,
  DeleteOutlined,
  FileZipOutlined,
  FolderOpenOutlined,
  SortAscendingOutlined,
  SortDescendingOutlined,
  TagsOutlined,
  UnorderedListOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Input, Segmented, Select, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../lib/auth';
import { sampleFieldsQuery } from '../../../lib/metadata-filter';
import type { SortDirection, SortField } from '../api/list-images';
import type { DateGrouping } from '../image-groups';
import type { ViewMode } from './image-browser';
import type { UploadMode } from './upload-settings-dialog';

interface Props {
  narrow: boolean;
  view: ViewMode;
  onView: (v: ViewMode) => void;
  search: string;
  onSearch: (v: string) => void;
  sort: SortField;
  onSort: (v: SortField) => void;
  direction: SortDirection;
  onDirection: (v: SortDirection) => void;
  dateGrouping: DateGrouping;
  onDateGrouping: (v: DateGrouping) => void;
  /** a sample field to group by, or null: the sort's own groups */
  groupBy: string | null;
  onGroupBy: (v: string | null) => void;
  selectedCount: number;
  allSelected: boolean;
  /** fetching every id of the filter for "select all" */
  selectingAll: boolean;
  onSelectAll: () => void;
  onMove: () => void;
  /** set sample fields of the selected images */
  onEditFields: () => void;
  onDelete: () => void;
  onUpload: (mode: UploadMode) => void;
}

/** Header of the images screen: view, search, sort, direction, grouping; then the actions row. */
export function ImagesToolbar(p: Props) {
  const { t } = useTranslation('images');
  const { can, reason } = useCan();
  const changes = can('change');
  const fields = useQuery(sampleFieldsQuery).data ?? [];
  // Without fields in the library there is nothing to group by but the sort (the toolbar stays as it was).
  const groupOptions =
    fields.length === 0 && !p.groupBy
      ? null
      : [
          { value: '', label: t(`group_by_sort.${p.sort}`) },
          ...[...new Set([...fields.map((f) => f.field), ...(p.groupBy ? [p.groupBy] : [])])].map((f) => ({
            value: f,
            label: t(`samples:field.${f}`, { defaultValue: f }),
          })),
        ];
  return (
    <div className="images-toolbar">
      <div className="images-toolbar-row">
        <Segmented<ViewMode>
          value={p.view}
          onChange={p.onView}
          options={[
            { value: 'grid', icon: <AppstoreOutlined />, title: t('grid_view') },
            { value: 'list', icon: <UnorderedListOutlined />, title: t('list_view') },
          ]}
          data-testid="view-toggle"
        />
        <Input.Search
          allowClear
          className="images-search"
          placeholder={t('search_placeholder')}
          value={p.search}
          onChange={(e) => p.onSearch(e.target.value)}
          data-testid="image-search"
        />
        <Select<SortField>
          value={p.sort}
          onChange={p.onSort}
          className="images-sort"
          aria-label={t('sort_by')}
          data-testid="sort-select"
          options={(['date', 'name', 'folder', 'size'] as const).map((s) => ({ value: s, label: t(`sort.${s}`) }))}
        />
        <Tooltip title={t(p.direction === 'asc' ? 'ascending' : 'descending')}>
          <Button
            icon={p.direction === 'asc' ? <SortAscendingOutlined /> : <SortDescendingOutlined />}
            onClick={() => p.onDirection(p.direction === 'asc' ? 'desc' : 'asc')}
            aria-label={t(p.direction === 'asc' ? 'ascending' : 'descending')}
            data-testid="sort-direction"
          />
        </Tooltip>
        {groupOptions ? (
          <Select<string>
            value={p.groupBy ?? ''}
            onChange={(v) => p.onGroupBy(v || null)}
            className="images-group-by"
            prefix={t('group_by')}
            aria-label={t('group_by')}
            popupMatchSelectWidth={false}
            options={groupOptions}
            data-testid="group-by-select"
          />
        ) : null}
        {p.sort === 'date' && !p.groupBy ? (
          <Segmented<DateGrouping>
            value={p.dateGrouping}
            onChange={p.onDateGrouping}
            options={(['year', 'month', 'day'] as const).map((g) => ({ value: g, label: t(`group.${g}`) }))}
            data-testid="date-grouping"
          />
        ) : null}
      </div>
      <div className="images-toolbar-row">
        <Tooltip title={reason('change')}>
          <Button
            type="primary"
            icon={<UploadOutlined />}
            disabled={!changes}
            onClick={() => p.onUpload('single')}
            data-testid="upload-single"
          >
            {t('upload')}
          </Button>
        </Tooltip>
        {p.narrow || !changes ? null : (
          <>
            <Button icon={<CloudUploadOutlined />} onClick={() => p.onUpload('multiple')} data-testid="upload-multiple">
              {t('upload_multiple')}
            </Button>
            <Button icon={<FileZipOutlined />} onClick={() => p.onUpload('zip')} data-testid="upload-zip">
              {t('upload_zip')}
            </Button>
          </>
        )}
        <span className="images-toolbar-spacer" />
        <Button
          icon={<CheckSquareOutlined />}
          onClick={p.onSelectAll}
          loading={p.selectingAll}
          data-testid="select-all"
        >
          {p.allSelected ? t('deselect_all') : t('select_all')}
        </Button>
        <Tooltip title={reason('change')}>
          <Button
            icon={<FolderOpenOutlined />}
            disabled={!changes || p.selectedCount === 0}
            onClick={p.onMove}
            data-testid="move-selected"
          >
            {t('move_selected')}
          </Button>
        </Tooltip>
        <Tooltip title={reason('change')}>
          <Button
            icon={<TagsOutlined />}
            disabled={!changes || p.selectedCount === 0}
            onClick={p.onEditFields}
            data-testid="edit-fields"
          >
            {t('edit_fields.button')}
          </Button>
        </Tooltip>
        <Tooltip title={reason('change')}>
          <Button
            danger
            icon={<DeleteOutlined />}
            disabled={!changes || p.selectedCount === 0}
            onClick={p.onDelete}
            data-testid="delete-selected"
          >
            {t('delete_selected')}
          </Button>
        </Tooltip>
        {p.selectedCount > 0 ? (
          <span className="images-selected-count" data-testid="selected-count">
            {t('selected_count', { count: p.selectedCount })}
          </span>
        ) : null}
      </div>
    </div>
  );
}
