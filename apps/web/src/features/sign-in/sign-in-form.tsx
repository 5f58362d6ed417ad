import type { User } from '@cassavascope/contract';
import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client';
import { signIn } from '../../lib/auth';

interface Fields {
  username: string;
  password: string;
}

/** The message for a refused sign-in (never the server's English detail). */
function refusal(t: (key: string, options?: Record<string, unknown>) => string, err: unknown): string {
  if (err instanceof ApiError && err.code === 'bad_credentials') return t('errors.bad_credentials');
  if (err instanceof ApiError && err.code === 'too_many_attempts')
    return t('errors.too_many_attempts', { seconds: Number(err.body.retry_after) || 60 });
  if (err instanceof ApiError && err.status === 0)
    return t(`common:errors.${err.code}`, { defaultValue: t('errors.generic') });
  return t('errors.generic');
}

/** User name and password; calls `onSignedIn` with the user once the server has opened a session. */
export function SignInForm({
  onSignedIn,
  username,
}: {
  onSignedIn: (user: User) => void;
  username?: string | undefined;
}) {
  const { t } = useTranslation('auth');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async ({ username, password }: Fields) => {
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signIn(username.trim(), password));
    } catch (err) {
      setError(refusal(t, err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Form<Fields>
      layout="vertical"
      initialValues={{ username: username ?? '' }}
      onFinish={(v) => void submit(v)}
      requiredMark={false}
      data-testid="sign-in-form"
    >
      <Form.Item
        name="username"
        label={t('username')}
        rules={[{ required: true, whitespace: true, message: t('required') }]}
      >
        <Input autoComplete="username" autoFocus={!username} data-testid="sign-in-username" />
      </Form.Item>
      <Form.Item name="password" label={t('password')} rules={[{ required: true, message: t('required') }]}>
        <Input.Password autoComplete="current-password" autoFocus={!!username} data-testid="sign-in-password" />
      </Form.Item>
      {error ? (
        <Alert type="error" showIcon title={error} className="sign-in-error" data-testid="sign-in-error" />
      ) : null}
      <Button type="primary" htmlType="submit" block loading={busy} data-testid="sign-in-submit">
        {t('sign_in')}
      </Button>
    </Form>
  );
}
