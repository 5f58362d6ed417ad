import { EditOutlined, PictureOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Col, Input, Row } from 'antd';
import { TASK_NAME_MAX } from '@cassavascope/contract';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigateSection } from '../../lib/section-context';
import { codeMessage, errorCode } from '../../lib/error-message';
import { useCreatePredictionTask, type PredictionParameterValues } from './api/create-prediction-task';
import { useEngine } from './api/get-engine-status';
import { engineLabelText } from '../../lib/model-label';
import { parseSpecimenKind, readyLabModels, useLabModels, type SpecimenKindChoice } from '../../lib/lab-models';
import { usePredictionFolders } from './api/get-prediction-folders';
import { useMeasuredRate } from './api/get-measured-rate';
import { useHandOver, type RerunParameters } from '../../lib/hand-over';
import { PageShell } from '../../lib/page-shell';
import { usePredictionImages, type ImageFilter } from './api/get-prediction-images';
import { ConfigurationPanel } from './components/configuration-panel';
import { ConfirmTaskDialog } from './components/confirm-task-dialog';
import { FolderSidebar } from './components/folder-sidebar';
import { ImageChecklist } from './components/image-checklist';
import { PredictionStats } from './components/prediction-stats';
import { SummaryPanel } from './components/summary-panel';
import { DEFAULT_PARAMETER_VALUES } from './default-parameters';
import { defaultTaskName, taskSubject } from './default-task-name';
import { usePredictionSelection } from './hooks/use-prediction-selection';
import './prediction.css';

/** A task's parameters as the configuration's values; a value the task did not record keeps its default. */
function rerunValues(p: RerunParameters): PredictionParameterValues {
  const d = DEFAULT_PARAMETER_VALUES;
  return {
    confidenceThreshold: p.confidenceThreshold ?? d.confidenceThreshold,
    usePostProcessing: p.usePostProcessing,
    useTTA: p.useTTA,
    minArea: p.minArea ?? d.minArea,
    morphKernelSize: p.morphKernelSize ?? d.morphKernelSize,
    morphIterations: p.morphIterations ?? d.morphIterations,
    overlayOpacity: p.overlayOpacity ?? d.overlayOpacity,
  };
}

const ALL_IMAGES: ImageFilter = { folder: null, search: '', sort: 'date' };

/** Prediction: pick images or folders, set the parameters, and create a task (spec section 2). */
export default function PredictionPage() {
  const { t } = useTranslation('prediction');
  const { message, notification } = App.useApp();
  const navigate = useNavigateSection();
  const folders = usePredictionFolders();
  const engine = useEngine();
  const library = usePredictionImages(ALL_IMAGES, 1, true);
  const [filter, setFilter] = useState<ImageFilter>(ALL_IMAGES);
  // "Run again with these parameters" (task details) hands over a task's parameters: the screen starts from them.
  const rerun = useHandOver('rerunParameters');
  const [parameters, setParameters] = useState<PredictionParameterValues>(() =>
    rerun ? rerunValues(rerun) : DEFAULT_PARAMETER_VALUES,
  );
  const [taskName, setTaskName] = useState(() => defaultTaskName(t('task_default.nothing')));
  const [nameEdited, setNameEdited] = useState(false);
  // Bumped when a task is created: the next default name gets a new time.
  const [created, setCreated] = useState(0);
  const measured = useMeasuredRate();
  const [confirming, setConfirming] = useState(false);
  const selection = usePredictionSelection(folders.data?.folders ?? []);
  const create = useCreatePredictionTask();
  const labModels = readyLabModels(useLabModels().data);
  const [specimenKind, setSpecimenKind] = useState<SpecimenKindChoice>(() => parseSpecimenKind(rerun?.specimenKind));
  const [modelId, setModelId] = useState<number | null>(() => rerun?.modelId ?? null);
  // "Score again with this model" hands over the task's images too: they start picked.
  const { setManyImages } = selection;
  useEffect(() => {
    if (rerun?.imageIds?.length)
      setManyImages(
        rerun.imageIds.map((id) => ({ id, folderId: null })),
        true,
      );
  }, [rerun, setManyImages]);

  // The default name says what the task scores (the folder picked, the specimen kind, how many photos) and follows
  // the picks and the language until the user types one.
  const subject = taskSubject(t, {
    folderNames: (folders.data?.folders ?? []).filter((f) => selection.isFolderSelected(f.id)).map((f) => f.name),
    looseImages: selection.looseImageCount,
    specimenKind,
  });
  useEffect(() => {
    if (!nameEdited) setTaskName(defaultTaskName(subject));
  }, [subject, nameEdited, created]);

  useEffect(() => {
    if (folders.isError) message.error(t('errors.load_folders'));
  }, [folders.isError, message, t]);
  useEffect(() => {
    if (library.isError) message.error(t('errors.load_images'));
  }, [library.isError, message, t]);

  const onCreate = () => {
    if (selection.selectedCount === 0) {
      message.warning(t('select_items'));
      return;
    }
    setConfirming(true);
  };

  const onConfirm = (name: string) => {
    create.mutate(
      { name, parameters, imageIds: selection.imageIds, folderIds: selection.folderIds, specimenKind, modelId },
      {
        onSuccess: () => {
          setConfirming(false);
          message.success(t('created'));
          notification.success({
            key: 'prediction-created',
            title: t('created_go_tasks'),
            actions: (
              <Button
                type="primary"
                size="small"
                onClick={() => {
                  notification.destroy('prediction-created');
                  navigate('tasks');
                }}
              >
                {t('open_tasks')}
              </Button>
            ),
          });
          selection.clear();
          setNameEdited(false);
          setCreated((n) => n + 1);
        },
        onError: (err) => {
          // A refusal with a known reason (e.g. the chosen folders are empty) is shown with that reason, translated.
          const reason = codeMessage(t, errorCode(err));
          message.error(reason ? t('create_task_failed_reason', { reason }) : t('create_task_failed'));
        },
      },
    );
  };

  const modelLabel = engine.data
    ? engineLabelText(engine.data.label, t)
    : engine.isError
      ? t('config.model_unknown')
      : null;
  const labModel = modelId === null ? null : (labModels.find((m) => m.id === modelId) ?? null);
  // The summary names what will score: the chosen lab model, or the default engine.
  const scoringLabel = modelId === null ? modelLabel : t('config.model_lab', { name: labModel?.name ?? `#${modelId}` });

  return (
    <PageShell name="prediction" title={t('title')} subtitle={t('subtitle')}>
      <PredictionStats
        availableImages={library.data?.libraryCount ?? null}
        folders={folders.data?.count ?? null}
        selected={selection.selectedCount}
        labModels={labModels.length}
      />
      <Row gutter={[16, 16]} className="prediction-body">
        <Col xs={24} lg={16}>
          <Card
            className="prediction-card"
            title={
              <span>
                <PictureOutlined /> {t('images.title')}
              </span>
            }
          >
            <div className="prediction-field">
              <label className="prediction-field-head" htmlFor="prediction-task-name">
                <span>
                  <EditOutlined /> {t('task_name.label')}
                </span>
              </label>
              <Input
                id="prediction-task-name"
                value={taskName}
                maxLength={TASK_NAME_MAX}
                showCount
                placeholder={t('task_name.placeholder')}
                onChange={(e) => {
                  setNameEdited(true);
                  setTaskName(e.target.value);
                }}
              />
            </div>
            <div className="prediction-picker">
              <FolderSidebar
                folders={folders.data?.folders ?? []}
                libraryCount={library.data?.libraryCount ?? null}
                uncategorizedCount={library.data?.uncategorizedCount ?? null}
                current={filter.folder}
                onShow={(folder) => setFilter({ ...filter, folder })}
                selection={selection}
              />
              <ImageChecklist filter={filter} onFilterChange={setFilter} selection={selection} />
            </div>
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <div className="prediction-side">
            {rerun && (
              <Alert
                type="info"
                showIcon
                data-testid="rerun-notice"
                title={
                  rerun.imageIds?.length
                    ? t('rerun_model_notice', {
                        name: rerun.taskName,
                        count: rerun.imageIds.length,
                        model: scoringLabel ?? '…',
                      })
                    : t('rerun_notice', { name: rerun.taskName })
                }
              />
            )}
            <ConfigurationPanel
              values={parameters}
              onChange={setParameters}
              modelLabel={modelLabel}
              engineKind={engine.data?.kind ?? null}
              specimenKind={specimenKind}
              onSpecimenKindChange={setSpecimenKind}
              modelId={modelId}
              onModelChange={setModelId}
              labModels={labModels}
            />
            <SummaryPanel
              imageCount={selection.imageCount}
              folderCount={selection.folderCount}
              estimatedImages={selection.estimatedImages}
              modelLabel={scoringLabel}
              secondsPerImage={measured.data ?? null}
              creating={create.isPending}
              onCreate={onCreate}
            />
          </div>
        </Col>
      </Row>
      <ConfirmTaskDialog
        open={confirming}
        name={taskName}
        estimatedImages={selection.estimatedImages}
        creating={create.isPending}
        onConfirm={onConfirm}
        onCancel={() => setConfirming(false)}
      />
    </PageShell>
  );
}
