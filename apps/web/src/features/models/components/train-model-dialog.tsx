import { MODEL_NAME_MAX } from '@cassavascope/contract';
import { Alert, Form, Input, Modal, Radio, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorCode, errorMessage } from '../../../lib/error-message';
import { useFolders } from '../../../lib/folders-api';
import { useLabelledPhotoCount, useTrainModel } from '../api/models-api';

/** The fewest labelled photos a training accepts (api.md `not_enough_labels`). */
const MIN_PHOTOS = 2;

interface Props {
  open: boolean;
  onClose: () => void;
  onStarted: (name: string) => void;
}

/**
 * Train a new model: its name and which labelled photos (every one, or those in chosen folders). Says how many
 * photos carry labels and what the training needs, before the server refuses.
 */
export function TrainModelDialog({ open, onClose, onStarted }: Props) {
  const { t } = useTranslation('models');
  const count = useLabelledPhotoCount();
  const folders = useFolders();
  const train = useTrainModel();
  const [name, setName] = useState('');
  const [scope, setScope] = useState<'all' | 'folders'>('all');
  const [folderIds, setFolderIds] = useState<number[]>([]);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!open) return;
    setName('');
    setScope('all');
    setFolderIds([]);
    setError(null);
    void count.refetch(); // a fresh form and count each time it opens
  }, [open]);

  const labelled = count.data ?? null;
  const tooFew = labelled !== null && labelled < MIN_PHOTOS;
  const blank = name.trim() === '';
  const noFolders = scope === 'folders' && folderIds.length === 0;

  const submit = () => {
    setError(null);
    train.mutate(
      { name, folderIds: scope === 'folders' ? folderIds : [] },
      {
        onSuccess: (model) => onStarted(model.name || name.trim()),
        onError: (err) => {
          const code = errorCode(err);
          setError(code === 'not_enough_labels' ? t('train.not_enough_labels') : errorMessage(t, err));
        },
      },
    );
  };

  return (
    <Modal
      open={open}
      title={t('train.title')}
      okText={t('train.start')}
      cancelText={t('train.close')}
      onOk={submit}
      onCancel={onClose}
      okButtonProps={{ disabled: blank || tooFew || noFolders, loading: train.isPending, 'data-testid': 'train-start' }}
      destroyOnHidden
    >
      <div className="model-train" data-testid="train-dialog">
        <Alert
          type={tooFew ? 'warning' : 'info'}
          showIcon
          data-testid="train-labelled-count"
          title={labelled === null ? t('train.counting') : t('train.labelled_count', { count: labelled })}
          description={t('train.needs')}
        />
        <Form layout="vertical" onFinish={submit}>
          <Form.Item label={t('train.name')} required>
            <Input
              value={name}
              maxLength={MODEL_NAME_MAX}
              showCount
              placeholder={t('train.name_placeholder')}
              onChange={(e) => setName(e.target.value)}
              data-testid="train-name"
            />
          </Form.Item>
          <Form.Item label={t('train.photos')}>
            <Radio.Group value={scope} onChange={(e) => setScope(e.target.value as 'all' | 'folders')}>
              <Radio value="all" data-testid="train-scope-all">
                {t('train.scope_all')}
              </Radio>
              <Radio value="folders" data-testid="train-scope-folders">
                {t('train.scope_folders')}
              </Radio>
            </Radio.Group>
          </Form.Item>
          {scope === 'folders' && (
            <Form.Item label={t('train.folders')}>
              <Select
                mode="multiple"
                value={folderIds}
                onChange={setFolderIds}
                loading={folders.isLoading}
                placeholder={t('train.folders_placeholder')}
                optionFilterProp="label"
                options={(folders.data ?? []).map((f) => ({ value: f.id, label: f.name }))}
                data-testid="train-folders"
              />
            </Form.Item>
          )}
        </Form>
        {error && <Alert type="error" showIcon title={error} data-testid="train-error" />}
      </div>
    </Modal>
  );
}
