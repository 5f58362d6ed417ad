import { InboxOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Checkbox, Progress, Select, Space, Table, Tag, Typography, Upload } from 'antd';
import type { MetadataSheetResponse, SheetRowStatus } from '@cassavascope/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../lib/auth';
import { errorMessage } from '../../../lib/error-message';
import { invalidateLibrary, useFolders } from '../../../lib/folders-api';
import { uploadSheet } from '../api/samples-api';

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * A row's detail in the screen's language: the fields it set, or for a bad value the fields refused (the
 * server's detail is English: "dah: must be ...; rep: ..."; only its field names are shown).
 */
function rowDetail(t: Translate, r: MetadataSheetResponse['rows'][number]): string {
  const names = (fields: string[]) => fields.map((f) => t(`field.${f}`, { defaultValue: f })).join(', ');
  if (r.status === 'applied') return r.detail ? names(r.detail.split(', ')) : t('status_detail.no_values');
  if (r.status === 'bad_value')
    return t('status_detail.bad_value', { fields: names(r.detail.split('; ').map((p) => p.split(':')[0]!.trim())) });
  return t(`status_detail.${r.status}`);
}

const STATUS_COLOURS: Record<SheetRowStatus, string> = {
  applied: 'success',
  unknown_file: 'default',
  ambiguous: 'warning',
  bad_value: 'error',
};

/**
 * "From a sheet": a CSV or Excel field book (a name column, then one column per field). The report says what
 * happened to every row; with a bad value nothing is applied unless the researcher asks for the rest.
 */
export function SheetPanel() {
  const { t } = useTranslation('samples');
  const { message } = App.useApp();
  const { can, reason } = useCan();
  const queryClient = useQueryClient();
  const folders = useFolders();
  const [folderId, setFolderId] = useState<number | null>(null);
  const [partial, setPartial] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [report, setReport] = useState<MetadataSheetResponse | null>(null);

  const send = async (file: File) => {
    setProgress(0);
    setReport(null);
    try {
      const res = await uploadSheet(file, folderId, partial, setProgress);
      setReport(res);
      if (res.applied > 0) {
        await invalidateLibrary(queryClient);
        await queryClient.invalidateQueries({ queryKey: ['samples'] });
      }
    } catch (err) {
      message.error(errorMessage(t, err, 'sheet_failed'));
    } finally {
      setProgress(null);
    }
  };

  const counts =
    report?.rows.reduce<Record<string, number>>((acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }), {}) ??
    {};
  const folderOptions = [
    { value: 0, label: t('whole_library') },
    ...(folders.data ?? []).map((f) => ({ value: f.id, label: f.name })),
  ];

  return (
    <div className="samples-panel" data-testid="sheet-panel">
      <Typography.Paragraph type="secondary">{t('sheet_help')}</Typography.Paragraph>
      <Space wrap className="samples-controls">
        <Select
          className="samples-folder"
          value={folderId ?? 0}
          options={folderOptions}
          onChange={(v: number) => setFolderId(v === 0 ? null : v)}
          aria-label={t('folder')}
        />
        <Checkbox checked={partial} onChange={(e) => setPartial(e.target.checked)}>
          {t('partial')}
        </Checkbox>
      </Space>
      <Upload.Dragger
        accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
        showUploadList={false}
        disabled={!can('change') || progress !== null}
        beforeUpload={(file) => {
          void send(file);
          return false;
        }}
        data-testid="sheet-upload"
      >
        <p className="ant-upload-drag-icon">
          <InboxOutlined />
        </p>
        <p className="ant-upload-text">{can('change') ? t('sheet_drop') : reason('change')}</p>
        <p className="ant-upload-hint">{t('sheet_columns')}</p>
      </Upload.Dragger>
      {progress !== null ? <Progress percent={progress} size="small" /> : null}
      {report ? (
        <div className="samples-report" data-testid="sheet-report">
          {report.committed ? (
            <Alert type="success" showIcon message={t('sheet_applied', { count: report.applied })} />
          ) : (
            <Alert type="error" showIcon message={t('sheet_blocked', { count: counts.bad_value ?? 0 })} />
          )}
          <Space wrap className="samples-report-counts">
            {(Object.keys(STATUS_COLOURS) as SheetRowStatus[]).map((s) => (
              <Tag key={s} color={STATUS_COLOURS[s]}>
                {t(`status.${s}`)}: {counts[s] ?? 0}
              </Tag>
            ))}
          </Space>
          <Table
            size="small"
            rowKey="row"
            dataSource={report.rows}
            pagination={{ pageSize: 50, hideOnSinglePage: true }}
            scroll={{ x: true }}
            columns={[
              { title: t('row'), dataIndex: 'row', key: 'row', width: 70 },
              { title: t('name'), dataIndex: 'name', key: 'name', ellipsis: true },
              {
                title: t('status_title'),
                dataIndex: 'status',
                key: 'status',
                render: (s: SheetRowStatus) => <Tag color={STATUS_COLOURS[s]}>{t(`status.${s}`)}</Tag>,
              },
              {
                title: t('detail'),
                key: 'detail',
                render: (_: unknown, r: MetadataSheetResponse['rows'][number]) => rowDetail(t, r),
              },
            ]}
          />
        </div>
      ) : null}
    </div>
  );
}
