import type { User } from '@cassavascope/contract';
import { Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSession, useSignInRequired } from '../../lib/auth';
import { SignInForm } from './sign-in-form';

/**
 * Shown over the current screen when a call finds the session ended: the screen underneath stays as it is
 * (nothing typed is lost) and the waiting calls go on once `onSignedIn` has run. It cannot be dismissed.
 */
export function SignInModal({ onSignedIn }: { onSignedIn: (user: User) => void }) {
  const { t } = useTranslation('auth');
  const open = useSignInRequired();
  // Whoever was signed in is offered again (another user may still sign in instead).
  const previous = useSession().user?.username;
  return (
    <Modal
      open={open}
      title={t('session_ended_title')}
      footer={null}
      closable={false}
      maskClosable={false}
      keyboard={false}
      destroyOnHidden
      width={400}
      rootClassName="sign-in-modal"
    >
      <Typography.Paragraph type="secondary">{t('session_ended_intro')}</Typography.Paragraph>
      <SignInForm onSignedIn={onSignedIn} username={previous} />
    </Modal>
  );
}
