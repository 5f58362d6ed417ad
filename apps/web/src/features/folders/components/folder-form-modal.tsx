import { App, Form, Input, Modal, type ButtonProps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../../lib/api-client';
import { createFolder, isBlankName, updateFolder } from '../../../lib/folders-api';
import type { FolderItem } from '../../../lib/normalize-folder';
import { FOLDER_NAME_MAX } from '@cassavascope/contract';

interface Props {
  open: boolean;
  /** The folder being edited; null creates a new one. */
  folder: FolderItem | null;
  onClose: () => void;
  onSaved: (folder: FolderItem) => void;
}

/** Create and edit modal: name required and non-blank (the button stays disabled until it is), description optional. */
export function FolderFormModal({ open, folder, onClose, onSaved }: Props) {
  const { t } = useTranslation('folders');
  const { message } = App.useApp();
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const [nameError, setNameError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const editing = folder !== null;

  useEffect(() => {
    if (!open) return;
    setName(folder?.name ?? '');
    setDescription(folder?.description ?? '');
    setNameError(null);
  }, [open, folder]);

  const save = async () => {
    if (isBlankName(name)) return;
    setSaving(true);
    try {
      const saved = editing
        ? await updateFolder(folder.id, { name, description })
        : await createFolder({ name, description });
      message.success(t(editing ? 'updated' : 'created'));
      onSaved(saved);
    } catch (err) {
      if (err instanceof ApiError && err.status === 409) {
        setNameError(t('name_exists'));
        message.error(t('name_exists'));
      } else {
        message.error(t(editing ? 'update_failed' : 'create_failed'));
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t(editing ? 'edit_title' : 'create_title')}
      okText={t(editing ? 'save' : 'create')}
      cancelText={t('cancel')}
      onOk={() => void save()}
      onCancel={onClose}
      okButtonProps={{ disabled: isBlankName(name), loading: saving, 'data-testid': 'folder-form-ok' } as ButtonProps}
      destroyOnHidden
    >
      <Form layout="vertical" onFinish={() => void save()}>
        <Form.Item
          label={t('name')}
          required
          validateStatus={nameError ? 'error' : undefined}
          help={nameError ?? undefined}
        >
          <Input
            autoFocus
            value={name}
            maxLength={FOLDER_NAME_MAX}
            placeholder={t('name_placeholder')}
            data-testid="folder-name-input"
            onChange={(e) => {
              setName(e.target.value);
              setNameError(null);
            }}
            onPressEnter={() => void save()}
          />
        </Form.Item>
        <Form.Item label={t('description')}>
          <Input.TextArea
            value={description}
            rows={3}
            placeholder={t('description_placeholder')}
            data-testid="folder-description-input"
            onChange={(e) => setDescription(e.target.value)}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
