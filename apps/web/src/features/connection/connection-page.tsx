import {
  ApiOutlined,
  BookOutlined,
  CheckCircleFilled,
  CloseCircleFilled,
  LoadingOutlined,
  QuestionCircleOutlined,
} from '@ant-design/icons';
import { Button, Card } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiUrl } from '../../lib/api-client';
import { errorMessage } from '../../lib/error-message';
import { formatDateTime } from '../../lib/format';
import { PageShell } from '../../lib/page-shell';
import { useConnectionTest } from './api/get-server-status';
import { ConnectionDetails } from './components/connection-details';
import { ConnectionError } from './components/connection-error';
import './connection.css';

type TestState = 'idle' | 'testing' | 'success' | 'error';

/** Connection: a real test of the server (spec section 2; the seed's simulated test made true). */
export default function ConnectionPage() {
  const { t } = useTranslation('connection');
  const test = useConnectionTest();
  const [lastTest, setLastTest] = useState<string | null>(null);
  const state: TestState = test.isPending ? 'testing' : test.isSuccess ? 'success' : test.isError ? 'error' : 'idle';

  const start = () => test.mutate(undefined, { onSettled: () => setLastTest(new Date().toISOString()) });
  // The cause in the current language (network error, timeout...); anything else is the spec's 'connection failed'.
  const failure = errorMessage(t, test.error, 'connection:error.generic');

  const icon = {
    idle: <QuestionCircleOutlined />,
    testing: <LoadingOutlined />,
    success: <CheckCircleFilled />,
    error: <CloseCircleFilled />,
  }[state];

  return (
    <PageShell name="connection" icon={<ApiOutlined />} title={t('title')} subtitle={t('subtitle')}>
      <Card className={`connection-test is-${state}`} data-testid="connection-test" data-state={state}>
        <div className="connection-test-row">
          <span className="connection-state-icon">{icon}</span>
          <div className="connection-state-text">
            <strong data-testid="connection-state">{t(`state.${state}`)}</strong>
            <span>{t(`state.${state}_hint`)}</span>
          </div>
          <Button
            type="primary"
            size="large"
            onClick={start}
            disabled={state === 'testing'}
            loading={state === 'testing'}
            data-testid="connection-start"
          >
            {t('start')}
          </Button>
        </div>
        <div className="connection-last" data-testid="connection-last">
          {t('last_test', { when: lastTest ? formatDateTime(lastTest) : t('never') })}
        </div>
      </Card>
      {state === 'success' && test.data && <ConnectionDetails status={test.data} />}
      {state === 'error' && <ConnectionError message={failure} />}
      {/* The server describes its own API (Swagger UI and the OpenAPI document): for scripts and other tools. */}
      <Card className="connection-api-docs" data-testid="connection-api-docs">
        <div className="connection-api-docs-row">
          <BookOutlined className="connection-api-docs-icon" />
          <div className="connection-state-text">
            <strong>{t('api_docs.title')}</strong>
            <span>{t('api_docs.text')}</span>
          </div>
          <div className="connection-api-docs-links">
            <Button href={apiUrl('/docs/')} target="_blank" rel="noopener" data-testid="connection-api-docs-link">
              {t('api_docs.open')}
            </Button>
            <Button type="link" href={apiUrl('/openapi.json')} target="_blank" rel="noopener">
              {t('api_docs.openapi')}
            </Button>
          </div>
        </div>
      </Card>
    </PageShell>
  );
}
