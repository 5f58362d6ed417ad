import { FolderOutlined, InboxOutlined } from '@ant-design/icons';
import { Modal, Radio, Space, Typography, type ButtonProps } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { FolderItem } from '../../../lib/normalize-folder';
import { InlineFolderCreate } from './inline-folder-create';

interface Props {
  open: boolean;
  count: number;
  folders: FolderItem[];
  busy: boolean;
  onCancel: () => void;
  onMove: (folderId: number | null) => void;
}

/** Move-to-folder: the folder list (plus "no folder") and an inline new-folder field. */
export function MoveDialog({ open, count, folders, busy, onCancel, onMove }: Props) {
  const { t } = useTranslation('images');
  const [target, setTarget] = useState<number | 'none' | undefined>(undefined);
  useEffect(() => {
    if (open) setTarget(undefined);
  }, [open]);
  return (
    <Modal
      open={open}
      title={t('move_title', { count })}
      okText={t('move')}
      cancelText={t('cancel')}
      onCancel={onCancel}
      onOk={() => target !== undefined && onMove(target === 'none' ? null : target)}
      okButtonProps={{ disabled: target === undefined, loading: busy, 'data-testid': 'move-ok' } as ButtonProps}
    >
      <Typography.Paragraph type="secondary">{t('move_pick')}</Typography.Paragraph>
      <Radio.Group
        className="move-folder-list"
        value={target}
        onChange={(e) => setTarget(e.target.value as number | 'none')}
        data-testid="move-folders"
      >
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Radio value="none">
            <InboxOutlined /> {t('uncategorized')}
          </Radio>
          {folders.map((f) => (
            <Radio value={f.id} key={f.id} data-folder-name={f.name}>
              <FolderOutlined /> {f.name} <Typography.Text type="secondary">({f.imageCount})</Typography.Text>
            </Radio>
          ))}
        </Space>
      </Radio.Group>
      <div style={{ marginTop: 16 }}>
        <InlineFolderCreate onCreated={(f) => setTarget(f.id)} />
      </div>
    </Modal>
  );
}
