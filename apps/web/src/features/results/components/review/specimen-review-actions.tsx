import { CheckOutlined, EditOutlined, MinusCircleOutlined, PlusCircleOutlined, UndoOutlined } from '@ant-design/icons';
import { PPD_MAX, PPD_MIN, REVIEW_NOTE_MAX } from '@cassavascope/contract';
import { App, Button, Form, Input, InputNumber, Popover } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResultView, SpecimenView } from '../../../../lib/normalize-result';
import { formatPpd } from '../../../../lib/ppd';
import { useCan } from '../../../../lib/auth';
import { useReviewMutation } from '../../api/review-api';
import { reviewErrorMessage } from './review-error';

interface Props {
  result: ResultView;
  specimen: SpecimenView;
  /** this specimen is the one the keyboard acts on (A / X) */
  target: boolean;
}

/** The "set PPD" form: a value on the 0-10 scale and the reason. */
function SetPpdForm({
  specimen,
  onDone,
}: {
  specimen: SpecimenView;
  onDone: (ppd: number, note: string) => Promise<void>;
}) {
  const { t } = useTranslation('review');
  const [form] = Form.useForm<{ ppd: number | null; note: string }>();
  const [saving, setSaving] = useState(false);
  return (
    <Form
      form={form}
      layout="vertical"
      size="small"
      className="review-ppd-form"
      initialValues={{ ppd: specimen.ppd, note: '' }}
      onFinish={async (v) => {
        if (v.ppd === null || v.ppd === undefined) return;
        setSaving(true);
        try {
          await onDone(v.ppd, v.note ?? '');
        } finally {
          setSaving(false);
        }
      }}
    >
      <Form.Item
        name="ppd"
        label={t('set_ppd.ppd')}
        rules={[{ required: true, type: 'number', min: PPD_MIN, max: PPD_MAX }]}
      >
        <InputNumber
          min={PPD_MIN}
          max={PPD_MAX}
          step={0.1}
          precision={2}
          autoFocus
          data-testid="review-ppd-input"
          style={{ width: '100%' }}
        />
      </Form.Item>
      <Form.Item name="note" label={t('set_ppd.reason')}>
        <Input.TextArea
          maxLength={REVIEW_NOTE_MAX}
          showCount
          rows={2}
          placeholder={t('set_ppd.reason_placeholder')}
          data-testid="review-ppd-note"
        />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={saving} block data-testid="review-ppd-save">
        {t('set_ppd.save')}
      </Button>
    </Form>
  );
}

/**
 * One specimen's review controls, one click each: exclude/include, set PPD (with a reason), accept the engine's
 * value (or return to it after a correction). A corrected value is shown beside the engine's.
 */
export function SpecimenReviewActions({ result, specimen: s, target }: Props) {
  const { t } = useTranslation('review');
  const { message } = App.useApp();
  const review = useReviewMutation();
  const [editing, setEditing] = useState(false);

  const run = async (body: { excluded?: boolean; ppd?: number | null; note?: string }) => {
    try {
      await review.mutateAsync({ kind: 'patch', resultId: result.id, index: s.index, body });
      return true;
    } catch (err) {
      message.error(reviewErrorMessage(t, err));
      return false;
    }
  };
  const hasEngineValue = s.source === 'engine' || (s.enginePpd !== null && !s.corrected);
  const busy = review.isPending;
  // A viewer sees the values and the history; the controls say which role may change them.
  const { can, reason } = useCan();
  const locked = !can('change');
  return (
    <div className={`specimen-review${target ? ' is-target' : ''}`} data-testid="specimen-review" data-index={s.index}>
      {s.corrected && s.source === 'engine' && (
        <div
          className="specimen-review-engine"
          data-testid="specimen-engine-value"
          title={t('actions.corrected_from', { value: formatPpd(s.enginePpd) })}
        >
          {t('actions.engine_value', { value: formatPpd(s.enginePpd) })}
        </div>
      )}
      {target && !locked && (
        <div className="specimen-review-target" data-testid="review-target">
          {t('actions.target')}
        </div>
      )}
      {locked ? (
        <div className="specimen-review-locked" data-testid="review-locked">
          {reason('change')}
        </div>
      ) : (
        <div className="specimen-review-buttons">
          <Button
            size="small"
            icon={s.excluded ? <PlusCircleOutlined /> : <MinusCircleOutlined />}
            title={s.excluded ? t('actions.include_title') : t('actions.exclude_title')}
            disabled={busy}
            onClick={() => void run({ excluded: !s.excluded })}
            data-testid={s.excluded ? 'review-include' : 'review-exclude'}
          >
            {s.excluded ? t('actions.include') : t('actions.exclude')}
          </Button>
          <Popover
            open={editing}
            onOpenChange={setEditing}
            trigger="click"
            destroyOnHidden
            title={t('set_ppd.title', { n: s.index })}
            content={
              <SetPpdForm
                specimen={s}
                onDone={async (ppd, note) => {
                  if (await run({ ppd, ...(note.trim() ? { note: note.trim() } : {}) })) setEditing(false);
                }}
              />
            }
          >
            <Button size="small" icon={<EditOutlined />} disabled={busy} data-testid="review-set-ppd">
              {t('actions.set_ppd')}
            </Button>
          </Popover>
          {hasEngineValue && (s.corrected || s.needsReview) && (
            <Button
              size="small"
              icon={s.corrected ? <UndoOutlined /> : <CheckOutlined />}
              title={s.corrected ? undefined : t('actions.accept_title')}
              disabled={busy}
              onClick={() => void run({ ppd: null })}
              data-testid={s.corrected ? 'review-use-engine' : 'review-accept'}
            >
              {s.corrected ? t('actions.use_engine') : t('actions.accept')}
            </Button>
          )}
        </div>
      )}
    </div>
  );
}
