import type { ResultGroup } from '@cassavascope/contract';
import { Alert, Empty, Select, Space, Spin, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { QueryValue } from '../api-client';
import { errorMessage } from '../error-message';
import { fieldLabel } from '../field-label';
import { DotPlot } from './dot-plot';
import { defaultGroupField, groupByFields, groupKeyText } from './group-key';
import { GroupTable } from './group-table';
import { useMetadataFields, useResultGroups, type GroupQuery } from './groups-api';
import './groups.css';

/** The fields a researcher picked to group by (null: not picked yet, the default applies). */
export interface GroupFields {
  first: string | null;
  second: string | null;
}

/**
 * Mean PPD per group of one field (optionally a second) over the results of `filter`: the field pickers, the
 * table and the dot plot. Results' "By group" view and the Samples screen both show it; each says what a picked
 * group opens and adds its own actions (`actions`, e.g. the CSV export) beside the pickers. A photo is one
 * observation: the server counts one result per photo, its newest (of `taskNames`' tasks when the filter picks
 * tasks), and the line above the table says which.
 */
export function GroupSummary({
  filter,
  taskNames,
  fields,
  onFieldsChange,
  onPick,
  emptyText,
  actions,
}: {
  filter: Record<string, QueryValue>;
  /** the names of the tasks the filter picks; empty: every task (each photo's newest result) */
  taskNames: string[];
  fields: GroupFields;
  onFieldsChange: (fields: GroupFields) => void;
  onPick: (g: ResultGroup) => void;
  /** what an empty summary says (default: no scored results yet) */
  emptyText?: string;
  actions?: (query: GroupQuery) => ReactNode;
}) {
  const { t } = useTranslation('samples');
  const library = useMetadataFields();
  const names = library.data?.map((f) => f.field) ?? [];
  const first = fields.first ?? defaultGroupField(names);
  const by = groupByFields(first, fields.second);
  const query: GroupQuery = { by, filter };
  const groups = useResultGroups(query);
  const label = (f: string) => fieldLabel(t, f);
  const options = names.map((f) => ({ value: f, label: label(f) }));

  if (library.isError) return <Alert type="error" showIcon message={errorMessage(t, library.error, 'groups_failed')} />;
  if (library.data && names.length === 0) return <Empty description={t('no_fields')} data-testid="groups-empty" />;

  return (
    <div className="group-summary" data-testid="groups-panel">
      <Space wrap className="group-controls">
        <Select
          className="group-field"
          value={first ?? undefined}
          options={options}
          onChange={(v: string) => onFieldsChange({ first: v, second: fields.second === v ? null : fields.second })}
          aria-label={t('group_by')}
          prefix={t('group_by')}
          popupMatchSelectWidth={false}
          data-testid="groups-by"
        />
        <Select
          className="group-field"
          allowClear
          placeholder={t('then_by')}
          value={by[1]}
          options={options.filter((o) => o.value !== first)}
          onChange={(v: string | undefined) => onFieldsChange({ first, second: v ?? null })}
          aria-label={t('then_by')}
          popupMatchSelectWidth={false}
          data-testid="groups-then-by"
        />
        {actions?.(query)}
      </Space>
      <Typography.Text type="secondary" className="groups-basis" data-testid="groups-basis">
        {taskNames.length === 0
          ? t('basis_newest')
          : t(taskNames.length === 1 ? 'basis_task' : 'basis_tasks', { names: taskNames.join(t('list_separator')) })}
      </Typography.Text>
      {groups.isError ? <Alert type="error" showIcon message={errorMessage(t, groups.error, 'groups_failed')} /> : null}
      {groups.isLoading || library.isLoading ? <Spin /> : null}
      {groups.data && groups.data.length === 0 ? (
        <Empty description={emptyText ?? t('no_results')} data-testid="groups-no-results" />
      ) : null}
      {groups.data && groups.data.length > 0 ? (
        <>
          <GroupTable groups={groups.data} by={by} onPick={onPick} />
          <DotPlot
            groups={groups.data}
            label={(g) => groupKeyText(g.key, label, t('no_value'), 'never')}
            groupAxis={by.map(label).join(' · ')}
            onPick={onPick}
          />
        </>
      ) : null}
    </div>
  );
}
