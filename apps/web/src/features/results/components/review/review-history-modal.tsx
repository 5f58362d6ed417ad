import type { ReviewHistoryEntry } from '@cassavascope/contract';
import { useQuery } from '@tanstack/react-query';
import { Empty, Modal, Spin, Timeline } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatPpd } from '../../../../lib/ppd';
import { getHistory } from '../../api/review-api';

interface Props {
  open: boolean;
  resultId: number;
  onClose: () => void;
}

function value(v: ReviewHistoryEntry['from'], t: (k: string) => string): string {
  if (typeof v === 'boolean') return v ? t('history.change.excluded') : t('history.change.included');
  return formatPpd(v);
}

/** Every review change of a result, oldest first: when, which specimen, what, from and to, the reason, who. */
export function ReviewHistoryModal({ open, resultId, onClose }: Props) {
  const { t, i18n } = useTranslation('review');
  const history = useQuery({
    queryKey: ['results', 'history', resultId],
    queryFn: ({ signal }) => getHistory(resultId, signal),
    enabled: open,
  });
  const time = new Intl.DateTimeFormat(i18n.language === 'zh' ? 'zh-CN' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'medium',
  });
  return (
    <Modal open={open} title={t('history.title')} footer={null} onCancel={onClose} destroyOnHidden width={560}>
      <div data-testid="review-history">
        {history.isLoading ? (
          <Spin />
        ) : (history.data ?? []).length === 0 ? (
          <Empty description={t('history.empty')} />
        ) : (
          <Timeline
            items={(history.data ?? []).map((e, i) => ({
              key: i,
              children: (
                <div className="review-history-entry" data-testid="review-history-entry" data-change={e.change}>
                  <div>
                    <strong>{t(`history.change.${e.change}`)}</strong> · {t('history.specimen', { n: e.index })}
                    {e.change !== 'excluded' && e.change !== 'included' && (
                      <span className="review-history-values">
                        {' '}
                        {e.from === null ? '' : `${value(e.from, t)} → `}
                        {value(e.to, t)}
                      </span>
                    )}
                  </div>
                  {e.note && <div className="review-history-note">“{e.note}”</div>}
                  <small>
                    {time.format(new Date(e.time))} ·{' '}
                    {e.user ? (e.user.username ?? `#${e.user.id}`) : t('history.anonymous')}
                  </small>
                </div>
              ),
            }))}
          />
        )}
      </div>
    </Modal>
  );
}
