import {
  CheckCircleOutlined,
  CloseCircleOutlined,
  RiseOutlined,
  SyncOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Card, Statistic } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { TaskSummary } from '../task-figures';

function SummaryCard({
  title,
  value,
  icon,
  suffix,
  tone,
}: {
  title: string;
  value: number | string;
  icon: ReactNode;
  suffix?: string;
  tone: string;
}) {
  return (
    <Card size="small" className={`task-summary-card is-${tone}`} data-testid={`task-summary-${tone}`}>
      <Statistic title={title} value={value} prefix={icon} suffix={suffix} />
    </Card>
  );
}

/** Five summary cards: total, completed, running, failed, success rate. */
export function TaskSummaryCards({ summary: known }: { summary: TaskSummary | null }) {
  const { t } = useTranslation('tasks');
  // Unknown figures (nothing loaded yet, the load failed) show a dash, not zeros.
  const summary: Record<keyof TaskSummary, number | string> = known ?? {
    total: '–',
    completed: '–',
    running: '–',
    failed: '–',
    successRate: '–',
  };
  return (
    <div className="task-summary">
      <SummaryCard tone="total" title={t('summary.total')} value={summary.total} icon={<UnorderedListOutlined />} />
      <SummaryCard
        tone="completed"
        title={t('summary.completed')}
        value={summary.completed}
        icon={<CheckCircleOutlined />}
      />
      <SummaryCard tone="running" title={t('summary.running')} value={summary.running} icon={<SyncOutlined />} />
      <SummaryCard tone="failed" title={t('summary.failed')} value={summary.failed} icon={<CloseCircleOutlined />} />
      <SummaryCard
        tone="rate"
        title={t('summary.success_rate')}
        value={summary.successRate}
        suffix={known ? '%' : undefined}
        icon={<RiseOutlined />}
      />
    </div>
  );
}
