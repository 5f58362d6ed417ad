import type { User } from '@cassavascope/contract';
import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { SignInForm } from './sign-in-form';
import './sign-in.css';

/** The first screen when sign-in is on and nobody is signed in in this browser. */
export function SignInPage({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  const { t } = useTranslation('auth');
  return (
    <div className="sign-in-page" data-section="sign-in">
      <Card className="sign-in-card">
        <Typography.Title level={3}>{t('sign_in_title')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('sign_in_intro')}</Typography.Paragraph>
        <SignInForm onSignedIn={onSignedIn} />
      </Card>
    </div>
  );
}
