import {
  AppstoreOutlined,
  CheckSquareOutlined,
  CloudUploadOutlined,
  DeleteOutlined,
  DownOutlined,
  FileImageOutlined,
  FileZipOutlined,
  FolderOpenOutlined,
  HighlightOutlined,
  SearchOutlined,
  SlidersOutlined,
  SortAscendingOutlined,
  SortDescendingOutlined,
  TagsOutlined,
  UnorderedListOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Badge, Button, Drawer, Dropdown, Input, Segmented, Select, Space, Tooltip } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../lib/auth';
import { sampleFieldsQuery } from '../../../lib/metadata-filter';
import type { LabelledFilter, SortDirection, SortField } from '../api/list-images';
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
  /** all photos, only those with painted labels, or only those without */
  labelled: LabelledFilter;
  onLabelled: (v: LabelledFilter) => void;
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
  /** the sample-field filter: on a phone it goes into the options drawer with the view, sort and labels */
  filter?: ReactNode;
  /** a filter or grouping is set (the phone's options button shows a dot) */
  filtered?: boolean;
}

/**
 * Header of the images screen: view, search, sort, direction, grouping, the labelled filter; then the actions row.
 * On a phone (issue 25 item 6) it is one row, search, options and upload, so the first photo shows high on the
 * screen: the view, sort, grouping, labelled and field filters and select-all open in a drawer; Upload takes many photos at once (a
 * phone's picker does) and its menu offers one photo or a ZIP; the selection's actions show once something is
 * selected.
 */
export function ImagesToolbar(p: Props) {
  const { t } = useTranslation('images');
  const { can, reason } = useCan();
  const changes = can('change');
  const [optionsOpen, setOptionsOpen] = useState(false);
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
  // The list follows each keystroke, so the field needs no search button: on a phone that button's width cut the
  // placeholder to "Search by na…".
  const search = (
    <Input
      allowClear
      prefix={<SearchOutlined aria-hidden="true" />}
      className="images-search"
      placeholder={t('search_placeholder')}
      value={p.search}
      onChange={(e) => p.onSearch(e.target.value)}
      data-testid="image-search"
    />
  );
  const viewToggle = (
    <Segmented<ViewMode>
      value={p.view}
      onChange={p.onView}
      options={[
        { value: 'grid', icon: <AppstoreOutlined />, title: t('grid_view') },
        { value: 'list', icon: <UnorderedListOutlined />, title: t('list_view') },
      ]}
      data-testid="view-toggle"
    />
  );
  const sortControls = (
    <>
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
    </>
  );
  // Issue 23: the photos a lab has painted (to check or train on), or those still to paint.
  const labelledFilter = (
    <Select<LabelledFilter>
      value={p.labelled}
      onChange={p.onLabelled}
      className={`images-labelled${p.labelled === 'all' ? '' : ' is-on'}`}
      prefix={<HighlightOutlined aria-hidden="true" />}
      aria-label={t('labelled_filter.label')}
      title={t('labelled_filter.label')}
      popupMatchSelectWidth={false}
      options={(['all', 'labelled', 'unlabelled'] as const).map((v) => ({
        value: v,
        label: <span data-testid={`labelled-filter-${v}`}>{t(`labelled_filter.${v}`)}</span>,
      }))}
      data-testid="labelled-filter"
    />
  );
  const selectAll = (
    <Button icon={<CheckSquareOutlined />} onClick={p.onSelectAll} loading={p.selectingAll} data-testid="select-all">
      {p.allSelected ? t('deselect_all') : t('select_all')}
    </Button>
  );
  // A phone says the actions in a word each, so they fit beside the count.
  const short = p.narrow;
  const selectionActions = (
    <>
      <Tooltip title={reason('change')}>
        <Button
          icon={<FolderOpenOutlined />}
          disabled={!changes || p.selectedCount === 0}
          onClick={p.onMove}
          data-testid="move-selected"
        >
          {short ? t('move') : t('move_selected')}
        </Button>
      </Tooltip>
      <Tooltip title={reason('change')}>
        <Button
          icon={<TagsOutlined />}
          disabled={!changes || p.selectedCount === 0}
          onClick={p.onEditFields}
          data-testid="edit-fields"
        >
          {short ? t('edit_fields.short') : t('edit_fields.button')}
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
          {short ? t('delete') : t('delete_selected')}
        </Button>
      </Tooltip>
      {p.selectedCount > 0 ? (
        <span className="images-selected-count" data-testid="selected-count">
          {t('selected_count', { count: p.selectedCount })}
        </span>
      ) : null}
    </>
  );

  if (p.narrow) {
    return (
      <div className="images-toolbar is-narrow">
        <div className="images-toolbar-row">
          {search}
          <Badge dot={p.filtered ?? false}>
            <Button
              icon={<SlidersOutlined />}
              onClick={() => setOptionsOpen(true)}
              aria-label={t('options')}
              data-testid="images-options"
            />
          </Badge>
          <Tooltip title={reason('change')}>
            <Space.Compact>
              <Button
                type="primary"
                icon={<UploadOutlined />}
                disabled={!changes}
                onClick={() => p.onUpload('multiple')}
                data-testid="upload-multiple"
              >
                {t('upload')}
              </Button>
              <Dropdown
                disabled={!changes}
                trigger={['click']}
                menu={{
                  items: [
                    {
                      key: 'multiple',
                      icon: <CloudUploadOutlined />,
                      label: t('upload_multiple'),
                      onClick: () => p.onUpload('multiple'),
                    },
                    {
                      key: 'single',
                      icon: <FileImageOutlined />,
                      label: <span data-testid="upload-single">{t('upload_single_photo')}</span>,
                      onClick: () => p.onUpload('single'),
                    },
                    {
                      key: 'zip',
                      icon: <FileZipOutlined />,
                      label: <span data-testid="upload-zip">{t('upload_zip')}</span>,
                      onClick: () => p.onUpload('zip'),
                    },
                  ],
                }}
              >
                <Button
                  type="primary"
                  icon={<DownOutlined />}
                  disabled={!changes}
                  aria-label={t('upload_more')}
                  data-testid="upload-menu"
                />
              </Dropdown>
            </Space.Compact>
          </Tooltip>
        </div>
        {p.selectedCount > 0 ? (
          <div className="images-toolbar-row images-selection-bar" data-testid="selection-bar">
            {selectionActions}
            {selectAll}
          </div>
        ) : null}
        <Drawer
          open={optionsOpen}
          onClose={() => setOptionsOpen(false)}
          placement="bottom"
          size="auto"
          title={t('options')}
          className="images-options-drawer"
          data-testid="images-options-drawer"
        >
          <div className="images-options">
            {viewToggle}
            {sortControls}
            {labelledFilter}
            {p.filter}
            {selectAll}
          </div>
        </Drawer>
      </div>
    );
  }

  return (
    <div className="images-toolbar">
      <div className="images-toolbar-row">
        {viewToggle}
        {search}
        {sortControls}
        {labelledFilter}
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
        {!changes ? null : (
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
        {selectAll}
        {selectionActions}
      </div>
    </div>
  );
}
