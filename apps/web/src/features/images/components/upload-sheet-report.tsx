import { FileExcelOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigateSection } from '../../../lib/section-context';
import { SheetRowsReport, sheetStatusCounts } from '../../../lib/sheet-report';
import type { UploadSheet } from '../hooks/use-upload';
import './upload-sheet.css';

/** Rows shown per page in the dialog: a long field book pages rather than stretching it. */
const DIALOG_PAGE_SIZE = 8;

/** What became of the headline of a sheet applied (or kept out) after the photos. */
function SheetOutcome({ sheet, onApplyGoodRows }: { sheet: UploadSheet; onApplyGoodRows: () => void }) {
  const { t } = useTranslation('images');
  const navigate = useNavigateSection();
  if (sheet.state === 'waiting') return <Typography.Text type="secondary">{t('sheet_state.waiting')}</Typography.Text>;
  if (sheet.state === 'applying')
    return (
      <Space>
        <Spin size="small" />
        <Typography.Text type="secondary">{t('sheet_state.applying')}</Typography.Text>
      </Space>
    );
  if (sheet.state === 'no_images') return <Alert type="warning" showIcon title={t('sheet_state.no_images')} />;
  if (sheet.state === 'failed' || !sheet.report)
    return <Alert type="error" showIcon title={t('sheet_state.failed', { reason: sheet.error ?? '' })} />;
  const report = sheet.report;
  const counts = sheetStatusCounts(report);
  if (!report.committed) {
    // A bad value kept every row out: the researcher applies the good ones now or corrects the sheet.
    return (
      <Alert
        type="error"
        showIcon
        title={t('sheet_state.blocked', { count: counts.bad_value })}
        description={
          <Space orientation="vertical" size={8}>
            <span>{t(counts.applied > 0 ? 'sheet_state.blocked_choice' : 'sheet_state.blocked_fix')}</span>
            <Space wrap>
              {counts.applied > 0 ? (
                <Button size="small" type="primary" onClick={onApplyGoodRows} data-testid="sheet-apply-good">
                  {t('sheet_apply_good', { count: counts.applied })}
                </Button>
              ) : null}
              <Button size="small" onClick={() => navigate('samples')} data-testid="sheet-open-samples">
                {t('sheet_open_samples')}
              </Button>
            </Space>
          </Space>
        }
        data-testid="sheet-outcome"
        data-outcome="blocked"
      />
    );
  }
  if (report.applied === 0)
    return (
      <Alert
        type="warning"
        showIcon
        title={t('sheet_state.none_matched')}
        data-testid="sheet-outcome"
        data-outcome="none"
      />
    );
  return (
    <Alert
      type="success"
      showIcon
      title={
        counts.bad_value > 0
          ? t('sheet_state.applied_partial', { count: report.applied, bad: counts.bad_value })
          : t('sheet_state.applied', { count: report.applied })
      }
      data-testid="sheet-outcome"
      data-outcome="applied"
    />
  );
}

/** The upload dialog's part for the sheet given with the photos: its name, outcome and per-row report. */
export function UploadSheetReport({ sheet, onApplyGoodRows }: { sheet: UploadSheet; onApplyGoodRows: () => void }) {
  const { t } = useTranslation('images');
  return (
    <section className="upload-sheet" data-testid="upload-sheet" data-state={sheet.state}>
      <Typography.Text strong className="upload-sheet-title">
        <FileExcelOutlined /> {t('sheet_title', { name: sheet.file.name })}
      </Typography.Text>
      <SheetOutcome sheet={sheet} onApplyGoodRows={onApplyGoodRows} />
      {sheet.state === 'done' && sheet.report ? (
        <SheetRowsReport report={sheet.report} scope="upload" pageSize={DIALOG_PAGE_SIZE} />
      ) : null}
    </section>
  );
}
