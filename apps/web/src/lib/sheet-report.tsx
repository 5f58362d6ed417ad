import { Space, Table, Tag } from 'antd';
import { WELL_KNOWN_FIELDS, type MetadataSheetResponse, type SheetRowStatus } from '@cassavascope/contract';
import { useTranslation } from 'react-i18next';

type Translate = (key: string, options?: Record<string, unknown>) => string;
type SheetRow = MetadataSheetResponse['rows'][number];

/** Where the sheet's names were looked up: the whole library (or a folder), or the photos of one upload. */
export type SheetScope = 'library' | 'upload';

/** A refused value as the server words it: `dah: must be a non-negative number (got "soon")`. */
const REFUSED_VALUE = /^(\w+): .* \(got "(.*)"\)$/s;

/**
 * A bad value in the screen's language: the field, the value refused and, for a field of fixed type, what it
 * needs (the server's English wording is not shown).
 */
function refusedValue(t: Translate, problem: string): string {
  const m = REFUSED_VALUE.exec(problem);
  if (!m) return t('status_detail.bad_value', { fields: problem.split(':')[0]!.trim() });
  const [, field, value] = m as unknown as [string, string, string];
  const type = WELL_KNOWN_FIELDS.find((w) => w.field === field)?.type ?? null;
  const label = t(`field.${field}`, { defaultValue: field });
  return t(`status_detail.refused_${type ?? 'other'}`, { field: label, value });
}

/** A row's detail in the screen's language: the fields it set, each value refused, or why it matched nothing. */
function rowDetail(t: Translate, r: SheetRow, scope: SheetScope): string {
  if (r.status === 'applied')
    return r.detail
      ? r.detail
          .split(', ')
          .map((f) => t(`field.${f}`, { defaultValue: f }))
          .join(', ')
      : t('status_detail.no_values');
  if (r.status === 'bad_value')
    return r.detail
      .split('; ')
      .map((p) => refusedValue(t, p))
      .join('; ');
  return t(scope === 'upload' ? `status_detail_upload.${r.status}` : `status_detail.${r.status}`);
}

export const SHEET_STATUS_COLOURS: Record<SheetRowStatus, string> = {
  applied: 'success',
  unknown_file: 'default',
  ambiguous: 'warning',
  bad_value: 'error',
};

/** How many rows have each status. */
export function sheetStatusCounts(report: MetadataSheetResponse): Record<SheetRowStatus, number> {
  const counts: Record<SheetRowStatus, number> = { applied: 0, unknown_file: 0, ambiguous: 0, bad_value: 0 };
  for (const r of report.rows) counts[r.status] += 1;
  return counts;
}

/** A sheet's report, row by row (Samples' sheet tab and the upload dialog): the counts, then a table. */
export function SheetRowsReport({
  report,
  scope,
  pageSize = 50,
}: {
  report: MetadataSheetResponse;
  scope: SheetScope;
  pageSize?: number;
}) {
  const { t } = useTranslation('samples');
  const counts = sheetStatusCounts(report);
  // While a bad value keeps the sheet out, a good row is not "applied" yet: it says so.
  const label = (s: SheetRowStatus) => t(s === 'applied' && !report.committed ? 'status.applied_held' : `status.${s}`);
  return (
    <>
      <Space wrap className="samples-report-counts" data-testid="sheet-counts">
        {(Object.keys(SHEET_STATUS_COLOURS) as SheetRowStatus[]).map((s) => (
          <Tag key={s} color={SHEET_STATUS_COLOURS[s]} data-status={s}>
            {label(s)}: {counts[s]}
          </Tag>
        ))}
      </Space>
      <Table
        size="small"
        rowKey="row"
        dataSource={report.rows}
        pagination={{ pageSize, hideOnSinglePage: true }}
        scroll={{ x: true }}
        data-testid="sheet-rows"
        columns={[
          { title: t('row'), dataIndex: 'row', key: 'row', width: 70 },
          { title: t('name'), dataIndex: 'name', key: 'name', ellipsis: true },
          {
            title: t('status_title'),
            dataIndex: 'status',
            key: 'status',
            render: (s: SheetRowStatus) => <Tag color={SHEET_STATUS_COLOURS[s]}>{label(s)}</Tag>,
          },
          { title: t('detail'), key: 'detail', render: (_: unknown, r: SheetRow) => rowDetail(t, r, scope) },
        ]}
      />
    </>
  );
}
