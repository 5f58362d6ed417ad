import { Alert, Card } from 'antd';
import { useTranslation } from 'react-i18next';

const CHECKLIST = ['backend', 'api', 'network', 'console', 'firewall'] as const;

/** On error: the message and the five things to check. */
export function ConnectionError({ message }: { message: string }) {
  const { t } = useTranslation('connection');
  return (
    <div className="connection-error" data-testid="connection-error">
      <Alert type="error" showIcon title={t('error.title')} description={message} />
      <Card size="small" title={t('error.checklist_title')} className="connection-card">
        <ol className="connection-checklist" data-testid="connection-checklist">
          {CHECKLIST.map((item) => (
            <li key={item}>{t(`error.checklist.${item}`)}</li>
          ))}
        </ol>
      </Card>
    </div>
  );
}
