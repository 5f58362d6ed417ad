import { ExperimentOutlined, ImportOutlined, ReloadOutlined } from '@ant-design/icons';
import { App, Button, Skeleton, Tooltip } from 'antd';
import { useRef, useState, type ChangeEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useCan } from '../../lib/auth';
import { errorCode, errorMessage } from '../../lib/error-message';
import { useLabModels, type LabModelView } from '../../lib/lab-models';
import { LoadErrorState } from '../../lib/load-error-state';
import { PageShell } from '../../lib/page-shell';
import { useNavigateSection } from '../../lib/section-context';
import { useCancelTraining, useDeleteModel, useImportModel, useRenameModel } from './api/models-api';
import { ModelCard } from './components/model-card';
import { ModelsEmpty } from './components/models-empty';
import { RenameModelDialog } from './components/rename-model-dialog';
import { TrainModelDialog } from './components/train-model-dialog';
import './models.css';

/**
 * Models: the lab's own models, taught from photos painted in Images. List with live training progress, figures
 * on photos each did not train on beside the default engine's, held-out overlays; train, cancel, rename, delete,
 * download and import. A viewer sees everything and changes nothing.
 */
export default function ModelsPage() {
  const { t } = useTranslation('models');
  const { message, modal } = App.useApp();
  const navigate = useNavigateSection();
  const { can, reason } = useCan();
  const readOnlyReason = can('change') ? undefined : reason('change');
  const models = useLabModels();
  const rename = useRenameModel();
  const remove = useDeleteModel();
  const cancel = useCancelTraining();
  const importer = useImportModel();
  const [training, setTraining] = useState(false);
  const [renaming, setRenaming] = useState<LabModelView | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const onDelete = (model: LabModelView) =>
    modal.confirm({
      title: t('delete.title', { name: model.name }),
      content: t('delete.body'),
      okText: t('delete.ok'),
      cancelText: t('train.close'),
      okButtonProps: { danger: true, 'data-testid': 'model-delete-ok' },
      onOk: () =>
        remove.mutateAsync(model.id).then(
          () => void message.success(t('delete.done', { name: model.name })),
          (err: unknown) =>
            void message.error(
              errorCode(err) === 'model_in_use' ? t('delete.in_use') : errorMessage(t, err, 'models:delete.failed'),
            ),
        ),
    });

  const onCancel = (model: LabModelView) =>
    cancel.mutate(model.id, {
      onSuccess: () => message.success(t('cancel.done', { name: model.name })),
      onError: (err) => message.error(errorMessage(t, err, 'models:cancel.failed')),
    });

  const onRename = (name: string) => {
    if (!renaming) return;
    rename.mutate(
      { id: renaming.id, name },
      {
        onSuccess: () => setRenaming(null),
        onError: (err) => message.error(errorMessage(t, err, 'models:rename.failed')),
      },
    );
  };

  const onImportFile = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    e.target.value = '';
    if (!file) return;
    importer.mutate(file, {
      onSuccess: (model) => message.success(t('import.done', { name: model.name })),
      onError: (err) =>
        message.error(
          errorCode(err) === 'invalid_model'
            ? t('import.invalid', { file: file.name })
            : errorMessage(t, err, 'models:import.failed'),
        ),
    });
  };

  const guarded = (button: ReactNode) => (readOnlyReason ? <Tooltip title={readOnlyReason}>{button}</Tooltip> : button);
  const list = models.data ?? [];

  return (
    <PageShell
      name="models"
      title={t('title')}
      subtitle={t('subtitle')}
      actions={
        <>
          {guarded(
            <Button
              type="primary"
              icon={<ExperimentOutlined />}
              disabled={readOnlyReason !== undefined}
              onClick={() => setTraining(true)}
              data-testid="models-train"
            >
              {t('actions.train')}
            </Button>,
          )}
          {guarded(
            <Button
              icon={<ImportOutlined />}
              disabled={readOnlyReason !== undefined}
              loading={importer.isPending}
              onClick={() => fileInput.current?.click()}
              data-testid="models-import"
            >
              {t('actions.import')}
            </Button>,
          )}
          <Button
            icon={<ReloadOutlined spin={models.isFetching} />}
            aria-label={t('actions.refresh')}
            title={t('actions.refresh')}
            onClick={() => void models.refetch()}
          />
          <input
            ref={fileInput}
            type="file"
            hidden
            onChange={onImportFile}
            data-testid="models-import-input"
            aria-label={t('actions.import')}
          />
        </>
      }
    >
      {models.isLoading ? (
        <Skeleton active />
      ) : models.isError && !models.data ? (
        <LoadErrorState error={models.error} onRetry={() => void models.refetch()} retrying={models.isFetching} />
      ) : list.length === 0 ? (
        <ModelsEmpty onOpenImages={() => navigate('images')} />
      ) : (
        <div className="models-list" data-testid="models-list">
          {list.map((model) => (
            <ModelCard
              key={model.id}
              model={model}
              readOnlyReason={readOnlyReason}
              onRename={setRenaming}
              onDelete={onDelete}
              onCancel={onCancel}
              cancelling={cancel.isPending && cancel.variables === model.id}
            />
          ))}
        </div>
      )}
      <TrainModelDialog
        open={training}
        onClose={() => setTraining(false)}
        onStarted={(name) => {
          setTraining(false);
          message.success(t('train.started', { name }));
        }}
      />
      <RenameModelDialog
        model={renaming}
        saving={rename.isPending}
        onSave={onRename}
        onClose={() => setRenaming(null)}
      />
    </PageShell>
  );
}
