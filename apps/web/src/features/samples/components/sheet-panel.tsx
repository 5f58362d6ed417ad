import { InboxOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, App, Checkbox, Progress, Select, Space, Typography, Upload } from 'antd';
import type { MetadataSheetResponse } from '@cassavascope/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../../lib/auth';
import { errorMessage } from '../../../lib/error-message';
import { invalidateLibrary, useFolders } from '../../../lib/folders-api';
import { SheetRowsReport, sheetStatusCounts } from '../../../lib/sheet-report';
import { sendSheet } from '../../../lib/sheet-api';

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
      const res = await sendSheet(file, { folderId, partial, onProgress: setProgress });
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
            <Alert type="error" showIcon message={t('sheet_blocked', { count: sheetStatusCounts(report).bad_value })} />
          )}
          <SheetRowsReport report={report} scope="library" />
        </div>
      ) : null}
    </div>
  );
}
