import { AppstoreOutlined, ArrowDownOutlined, ArrowUpOutlined, LineChartOutlined } from '@ant-design/icons';
import { Card, Col, Row, Statistic } from 'antd';
import { HISTOGRAM_BINS, SEVERITIES, type HistogramKey, type Severity } from '@cassavascope/contract';
import { useTranslation } from 'react-i18next';
import { SEVERITY_COLOURS } from '../../../lib/ppd';
import type { ResultsSummary } from '../api/get-results-summary';
import { SeverityIcon } from './severity';
import { barWidth, percent } from '../bar-width';

const BIN_COLOURS: Record<HistogramKey, string> = {
  '>=10': '#820014',
  '8-10': '#a8071a',
  '7-8': SEVERITY_COLOURS.severe,
  '4-7': SEVERITY_COLOURS.mild,
  '0-4': SEVERITY_COLOURS.healthy,
};

const ppd2 = (v: number | null) => (v === null ? '--' : v.toFixed(2));

interface Props {
  summary: ResultsSummary | undefined;
  allTasks: boolean;
  /** filters beyond the task narrow the figures: the count's title says so */
  narrowed: boolean;
}

/** Four summary cards, the health distribution and the PPD distribution of the results the filters select. */
export function ResultsOverview({ summary, allTasks, narrowed }: Props) {
  const { t } = useTranslation('results');
  const count = summary?.count ?? 0;
  return (
    <div className="results-overview">
      <Row gutter={[12, 12]}>
        <Col xs={12} md={6}>
          <Card size="small" data-testid="summary-total">
            <Statistic
              title={t(`summary.${allTasks ? 'total_all' : 'total'}${narrowed ? '_filtered' : ''}`)}
              value={summary ? count : '--'}
              prefix={<AppstoreOutlined />}
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small" data-testid="summary-average">
            <Statistic
              title={t('summary.average')}
              value={ppd2(summary?.average ?? null)}
              prefix={<LineChartOutlined />}
            />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small" data-testid="summary-max">
            <Statistic title={t('summary.max')} value={ppd2(summary?.max ?? null)} prefix={<ArrowUpOutlined />} />
          </Card>
        </Col>
        <Col xs={12} md={6}>
          <Card size="small" data-testid="summary-min">
            <Statistic title={t('summary.min')} value={ppd2(summary?.min ?? null)} prefix={<ArrowDownOutlined />} />
          </Card>
        </Col>
      </Row>
      <Row gutter={[12, 12]} className="results-distributions">
        <Col xs={24} md={10}>
          <Card size="small" title={t('health.title')} className="results-panel" data-testid="health-distribution">
            {SEVERITIES.map((band: Severity) => {
              const n = summary?.bands[band] ?? 0;
              return (
                <div key={band} className="results-health-row" data-band={band}>
                  <SeverityIcon severity={band} />
                  <span className="results-health-label">{t(`health.${band}`)}</span>
                  <span className="results-health-count">{n}</span>
                  <span className="results-health-rate">{percent(n, count).toFixed(1)}%</span>
                </div>
              );
            })}
          </Card>
        </Col>
        <Col xs={24} md={14}>
          <Card size="small" title={t('histogram.title')} className="results-panel" data-testid="ppd-distribution">
            {HISTOGRAM_BINS.map((bin) => {
              const n = summary?.histogram[bin.key] ?? 0;
              const p = percent(n, count);
              return (
                <div key={bin.key} className="results-bar-row" data-bin={bin.key}>
                  <span className="results-bar-label">{bin.key === '>=10' ? '≥10' : bin.key}</span>
                  <span className="results-bar-track">
                    <span
                      className="results-bar"
                      style={{ width: `${barWidth(n, count)}%`, background: BIN_COLOURS[bin.key] }}
                    />
                  </span>
                  <span className="results-bar-value">
                    {n} · {p.toFixed(1)}%
                  </span>
                </div>
              );
            })}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
