import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FOLDER_NAME_MAX } from '@cassavascope/contract';
import { ApiError } from '../../../lib/api-client';
import { createFolder, FOLDERS_KEY, isBlankName } from '../../../lib/folders-api';
import type { FolderItem } from '../../../lib/normalize-folder';

/** A new-folder name field with a create button (disabled while the name is blank), used inside dialogs. */
export function InlineFolderCreate({ onCreated }: { onCreated: (folder: FolderItem) => void }) {
  const { t } = useTranslation('images');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);

  const create = async () => {
    if (isBlankName(name)) return;
    setBusy(true);
    try {
      const folder = await createFolder({ name });
      await queryClient.invalidateQueries({ queryKey: FOLDERS_KEY });
      message.success(t('folder_created'));
      setName('');
      onCreated(folder);
    } catch (err) {
      message.error(
        err instanceof ApiError && err.status === 409 ? t('folder_name_exists') : t('create_folder_failed'),
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space.Compact style={{ width: '100%' }}>
      <Input
        value={name}
        maxLength={FOLDER_NAME_MAX}
        placeholder={t('new_folder_placeholder')}
        onChange={(e) => setName(e.target.value)}
        onPressEnter={() => void create()}
        data-testid="inline-folder-name"
      />
      <Button
        icon={<PlusOutlined />}
        disabled={isBlankName(name)}
        loading={busy}
        onClick={() => void create()}
        data-testid="inline-folder-create"
      >
        {t('create_folder')}
      </Button>
    </Space.Compact>
  );
}
