import { Modal, Select, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEngine } from '../../../lib/engine-status';
import { readyLabModels, useLabModels } from '../../../lib/lab-models';
import { engineLabelText } from '../../../lib/model-label';
import type { TaskView } from '../../../lib/normalize-task';

interface Props {
  task: TaskView | null;
  onClose: () => void;
  /** the chosen model: a lab model's id, null for the default engine */
  onScore: (task: TaskView, modelId: number | null) => void;
}

const DEFAULT_ENGINE = 'default';

/**
 * "Score again with this model": pick the default engine or a ready lab model; the task's images, parameters and
 * specimen kind go to the Prediction screen with it, where the new task is checked and created.
 */
export function ScoreAgainDialog({ task, onClose, onScore }: Props) {
  const { t } = useTranslation('tasks');
  const engine = useEngine();
  const models = readyLabModels(useLabModels().data);
  const [choice, setChoice] = useState<number | typeof DEFAULT_ENGINE>(DEFAULT_ENGINE);
  // Start from a lab model other than the one the task used, if there is one: that is why one scores again
  // (chosen once per opened task, not again when the polled list of models refreshes).
  useEffect(() => {
    if (!task) return;
    const other = models.find((m) => m.id !== task.modelId);
    setChoice(other ? other.id : DEFAULT_ENGINE);
  }, [task?.id]);
  const engineName = engine.data ? engineLabelText(engine.data.label, t) : '…';
  return (
    <Modal
      open={task !== null}
      title={t('score_again.title')}
      okText={t('score_again.ok')}
      cancelText={t('score_again.cancel')}
      onOk={() => task && onScore(task, choice === DEFAULT_ENGINE ? null : choice)}
      onCancel={onClose}
      okButtonProps={{ 'data-testid': 'score-again-ok' }}
    >
      {task && (
        <div className="task-score-again" data-testid="score-again-dialog">
          <Typography.Paragraph>
            {t('score_again.body', { name: task.name, count: task.imageCount })}
          </Typography.Paragraph>
          <Select
            className="task-score-again-select"
            aria-label={t('details.model')}
            value={choice}
            onChange={setChoice}
            data-testid="score-again-model"
            options={[
              { value: DEFAULT_ENGINE, label: t('score_again.default', { engine: engineName }) },
              ...models.map((m) => ({ value: m.id, label: t('score_again.lab', { name: m.name }) })),
            ]}
          />
          {models.length === 0 && (
            <Typography.Paragraph type="secondary" className="task-score-again-hint">
              {t('score_again.no_models')}
            </Typography.Paragraph>
          )}
        </div>
      )}
    </Modal>
  );
}
