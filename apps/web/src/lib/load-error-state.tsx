import { DisconnectOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { EmptyState } from './empty-state';
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
    <EmptyState
      className={['load-error-state', className].filter(Boolean).join(' ')}
      testId={testId}
      image={<DisconnectOutlined className="load-error-icon" />}
      title={t('load_error.title')}
      hint={errorMessage(t, error, 'common:load_error.hint')}
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
    </EmptyState>
  );
}
