import { PASSWORD_MIN_LENGTH, ROLES, type Role, type UserRow } from '@cassavascope/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DeleteOutlined, KeyOutlined } from '@ant-design/icons';
import {
  App,
  Button,
  Form,
  Input,
  Grid,
  Modal,
  Popconfirm,
  Select,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client';
import { useSession } from '../../lib/auth';
import { formatDateTime } from '../../lib/format';
import { addUser, changeUser, deleteUser, listUsers } from './api/users-api';
import './users.css';

const USERS_KEY = ['users'] as const;

/** The admin's page: add users, change their role, reset a password, delete. */
export function UsersPanel() {
  const { t } = useTranslation('auth');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const session = useSession();
  const users = useQuery({ queryKey: USERS_KEY, queryFn: listUsers });
  const [adding, setAdding] = useState(false);
  const [resetting, setResetting] = useState<UserRow | null>(null);
  // On a phone the creation time makes way for the name, the role and the actions.
  const wide = Grid.useBreakpoint().md ?? true;

  const failed = (err: unknown) => {
    const code = err instanceof ApiError ? err.code : '';
    void message.error(t(`errors.${code}`, { defaultValue: t('errors.generic') }));
  };
  const done = (text: string) => {
    void message.success(text);
    void queryClient.invalidateQueries({ queryKey: USERS_KEY });
  };
  const roleName = (role: Role) => t(`roles.${role}`);
  const roleChange = useMutation({
    mutationFn: ({ user, role }: { user: UserRow; role: Role }) => changeUser(user.id, { role }),
    onSuccess: (u) => done(t('users.role_changed', { name: u.username, role: roleName(u.role) })),
    onError: failed,
  });
  const removal = useMutation({
    mutationFn: (user: UserRow) => deleteUser(user.id).then(() => user),
    onSuccess: (u) => done(t('users.deleted', { name: u.username })),
    onError: failed,
  });

  const roleOptions = ROLES.map((r) => ({ value: r, label: `${roleName(r)} · ${t(`role_help.${r}`)}` }));

  return (
    <div className="users-panel" data-testid="users-panel">
      <div className="users-panel-head">
        <Typography.Paragraph type="secondary">{t('users.intro')}</Typography.Paragraph>
        <Button type="primary" onClick={() => setAdding(true)} data-testid="users-add">
          {t('users.add')}
        </Button>
      </div>
      <Table<UserRow>
        rowKey="id"
        size="middle"
        loading={users.isPending}
        dataSource={users.data ?? []}
        pagination={false}
        scroll={wide ? undefined : { x: 'max-content' }}
        columns={[
          {
            title: t('username'),
            dataIndex: 'username',
            render: (name: string, u) => (
              <Space>
                <span data-user={name}>{name}</span>
                {u.id === session.user?.id ? <Tag>{t('users.you')}</Tag> : null}
              </Space>
            ),
          },
          {
            title: t('users.role'),
            dataIndex: 'role',
            width: wide ? 170 : 130,
            render: (role: Role, u) => (
              <Select<Role>
                value={role}
                style={{ width: wide ? 150 : 110 }}
                options={ROLES.map((r) => ({ value: r, label: roleName(r) }))}
                onChange={(next) => roleChange.mutate({ user: u, role: next })}
                data-testid={`role-${u.username}`}
                aria-label={t('users.role')}
              />
            ),
          },
          ...(wide
            ? [
                {
                  title: t('users.created'),
                  dataIndex: 'created_time',
                  width: 180,
                  render: (time: string) => formatDateTime(time),
                },
              ]
            : []),
          {
            title: t('users.actions'),
            width: wide ? 220 : 90,
            render: (_: unknown, u) => (
              // On a phone the two actions are icons (their names in the tooltip and for screen readers).
              <Space size="small">
                <Tooltip title={wide ? undefined : t('users.reset_password')}>
                  <Button
                    size="small"
                    icon={wide ? undefined : <KeyOutlined />}
                    aria-label={t('users.reset_password')}
                    onClick={() => setResetting(u)}
                    data-testid={`reset-${u.username}`}
                  >
                    {wide ? t('users.reset_password') : null}
                  </Button>
                </Tooltip>
                <Popconfirm
                  title={t('users.delete_confirm', { name: u.username })}
                  okText={t('users.delete')}
                  cancelText={t('users.cancel')}
                  onConfirm={() => removal.mutate(u)}
                >
                  <Button
                    size="small"
                    danger
                    icon={wide ? undefined : <DeleteOutlined />}
                    aria-label={t('users.delete')}
                    data-testid={`delete-${u.username}`}
                  >
                    {wide ? t('users.delete') : null}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <AddUserModal
        open={adding}
        roleOptions={roleOptions}
        onClose={() => setAdding(false)}
        onAdded={(u) => done(t('users.added', { name: u.username }))}
        onError={failed}
      />
      <ResetPasswordModal
        user={resetting}
        onClose={() => setResetting(null)}
        onChanged={(u) => done(t('users.password_changed', { name: u.username }))}
        onError={failed}
      />
    </div>
  );
}

const usernamePattern = /^[\p{L}\p{N}._@-]+$/u;

function AddUserModal(props: {
  open: boolean;
  roleOptions: { value: Role; label: string }[];
  onClose: () => void;
  onAdded: (u: UserRow) => void;
  onError: (e: unknown) => void;
}) {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<{ username: string; password: string; role: Role }>();
  const add = useMutation({
    mutationFn: addUser,
    onSuccess: (u) => {
      props.onAdded(u);
      form.resetFields();
      props.onClose();
    },
    onError: props.onError,
  });
  return (
    <Modal
      open={props.open}
      title={t('users.add_title')}
      okText={t('users.save')}
      cancelText={t('users.cancel')}
      onCancel={props.onClose}
      onOk={() => form.submit()}
      confirmLoading={add.isPending}
      destroyOnHidden
      rootClassName="users-add-modal"
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={{ role: 'researcher' }}
        onFinish={(v) => add.mutate({ ...v, username: v.username.trim() })}
        requiredMark={false}
      >
        <Form.Item
          name="username"
          label={t('username')}
          rules={[
            { required: true, whitespace: true, message: t('required') },
            { pattern: usernamePattern, message: t('users.username_rule') },
          ]}
        >
          <Input autoComplete="off" data-testid="new-username" />
        </Form.Item>
        <Form.Item
          name="password"
          label={t('password')}
          rules={[
            {
              required: true,
              min: PASSWORD_MIN_LENGTH,
              message: t('users.password_rule', { count: PASSWORD_MIN_LENGTH }),
            },
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="new-password" />
        </Form.Item>
        <Form.Item name="role" label={t('users.role')}>
          <Select<Role> options={props.roleOptions} data-testid="new-role" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

function ResetPasswordModal(props: {
  user: UserRow | null;
  onClose: () => void;
  onChanged: (u: UserRow) => void;
  onError: (e: unknown) => void;
}) {
  const { t } = useTranslation('auth');
  const [form] = Form.useForm<{ password: string }>();
  const change = useMutation({
    mutationFn: (password: string) => changeUser(props.user!.id, { password }),
    onSuccess: (u) => {
      props.onChanged(u);
      form.resetFields();
      props.onClose();
    },
    onError: props.onError,
  });
  return (
    <Modal
      open={props.user !== null}
      title={t('users.reset_title', { name: props.user?.username ?? '' })}
      okText={t('users.save')}
      cancelText={t('users.cancel')}
      onCancel={props.onClose}
      onOk={() => form.submit()}
      confirmLoading={change.isPending}
      destroyOnHidden
      rootClassName="users-reset-modal"
    >
      <Form form={form} layout="vertical" onFinish={(v) => change.mutate(v.password)} requiredMark={false}>
        <Form.Item
          name="password"
          label={t('users.new_password')}
          rules={[
            {
              required: true,
              min: PASSWORD_MIN_LENGTH,
              message: t('users.password_rule', { count: PASSWORD_MIN_LENGTH }),
            },
          ]}
        >
          <Input.Password autoComplete="new-password" data-testid="reset-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
