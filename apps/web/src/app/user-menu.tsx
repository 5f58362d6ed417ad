import { LogoutOutlined, TeamOutlined, UserOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Drawer, Dropdown, Grid } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SESSION_QUERY_KEY, signOut, useCan, useSession } from '../lib/auth';

// Admins only, and only when opened: not part of the first download.
const UsersPanel = lazy(() => import('../features/users/users-panel').then((m) => ({ default: m.UsersPanel })));

/** Who is signed in, with sign-out and (for admins) the users page. Nothing when sign-in is off. */
export function UserMenu() {
  const { t } = useTranslation('auth');
  const session = useSession();
  const { can } = useCan();
  const queryClient = useQueryClient();
  const screens = Grid.useBreakpoint();
  const [usersOpen, setUsersOpen] = useState(false);
  const user = session.user;
  if (!session.auth || !user) return null;

  const leave = async () => {
    await signOut().catch(() => undefined);
    // Back to the sign-in page; nothing of this user's data stays in memory for whoever signs in next.
    queryClient.setQueryData(SESSION_QUERY_KEY, { auth: true, user: null, signedOut: true });
    queryClient.removeQueries({ predicate: (q) => q.queryKey[0] !== SESSION_QUERY_KEY[0] });
  };

  return (
    <>
      <Dropdown
        trigger={['click']}
        menu={{
          items: [
            {
              key: 'who',
              label: `${t('signed_in_as', { name: user.username })} · ${t(`roles.${user.role}`)}`,
              disabled: true,
            },
            { type: 'divider' },
            ...(can('manage_users')
              ? [
                  {
                    key: 'users',
                    icon: <TeamOutlined />,
                    label: <span data-testid="menu-users">{t('manage_users')}</span>,
                  },
                ]
              : []),
            {
              key: 'sign-out',
              icon: <LogoutOutlined />,
              label: <span data-testid="menu-sign-out">{t('sign_out')}</span>,
            },
          ],
          onClick: ({ key }) => {
            if (key === 'users') setUsersOpen(true);
            if (key === 'sign-out') void leave();
          },
        }}
      >
        <Button
          type="text"
          icon={<UserOutlined />}
          data-testid="user-menu"
          aria-label={t('signed_in_as', { name: user.username })}
        >
          {screens.md ? user.username : null}
        </Button>
      </Dropdown>
      <Drawer
        open={usersOpen}
        onClose={() => setUsersOpen(false)}
        title={t('users.title')}
        size={screens.md ? 760 : '100%'}
        destroyOnHidden
      >
        {usersOpen ? (
          <Suspense fallback={null}>
            <UsersPanel />
          </Suspense>
        ) : null}
      </Drawer>
    </>
  );
}
