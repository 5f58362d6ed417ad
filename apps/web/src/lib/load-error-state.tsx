import { DisconnectOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorMessage } from './error-message';

interface Props {
  /** The failure of the load: its code is translated (network error, timeout, ...). */
  error: unknown;
  onRetry: () => void;
  retrying?: boolean;
  className?: string;
  testId?: string;
}

/**
 * What a list shows when its first load failed and there is nothing earlier to keep: an error, never the
 * "nothing here yet" state (the list may well have items the server could not send), with a retry button.
 */
export function LoadErrorState({ error, onRetry, retrying = false, className, testId = 'load-error' }: Props) {
  const { t } = useTranslation('common');
  return (
    <Empty
      className={['load-error-state', className].filter(Boolean).join(' ')}
      data-testid={testId}
      image={<DisconnectOutlined className="load-error-icon" />}
      description={
        <>
          <strong>{t('load_error.title')}</strong>
          <div>{errorMessage(t, error, 'common:load_error.hint')}</div>
        </>
      }
    >
      <Button
        type="primary"
        icon={<ReloadOutlined spin={retrying} />}
        disabled={retrying}
        onClick={onRetry}
        data-testid={`${testId}-retry`}
      >
        {t('load_error.retry')}
      </Button>
    </Empty>
  );
}
