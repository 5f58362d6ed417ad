import {
  PPD_MAX,
  PPD_MIN,
  REVIEW_NOTE_MAX,
  SPECIMEN_BOX_MIN,
  SPECIMEN_KINDS,
  type SpecimenKind,
} from '@cassavascope/contract';
import { App, Button, Form, Input, InputNumber, Modal, Select } from 'antd';
import { useRef, useState, useSyncExternalStore, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResultView } from '../../../../lib/normalize-result';
import { useReviewMutation } from '../../api/review-api';
import { reviewErrorMessage } from './review-error';

type Box = [number, number, number, number];

interface Props {
  open: boolean;
  result: ResultView;
  onClose: () => void;
}

/** A touch screen's finger rather than a mouse (the hint says which to drag with). */
const COARSE = '(pointer: coarse)';
const subscribeCoarse = (onChange: () => void) => {
  const query = window.matchMedia(COARSE);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
};
const isCoarse = () => window.matchMedia(COARSE).matches;

/** A box in the photo's own pixels from two points on the displayed image (the browser shows it EXIF-oriented, as boxes are given). */
function boxFrom(a: { x: number; y: number }, b: { x: number; y: number }, img: HTMLImageElement): Box {
  const scaleX = img.naturalWidth / img.clientWidth;
  const scaleY = img.naturalHeight / img.clientHeight;
  const clampX = (v: number) => Math.min(img.naturalWidth, Math.max(0, Math.round(v * scaleX)));
  const clampY = (v: number) => Math.min(img.naturalHeight, Math.max(0, Math.round(v * scaleY)));
  const x0 = clampX(Math.min(a.x, b.x));
  const y0 = clampY(Math.min(a.y, b.y));
  const x1 = clampX(Math.max(a.x, b.x));
  const y1 = clampY(Math.max(a.y, b.y));
  return [x0, y0, x1 - x0, y1 - y0];
}

/**
 * Adds a specimen the engine missed: the reviewer drags a box on the original photo (the specimens already found
 * are outlined), then saves with an optional kind, PPD (empty: the engine scores inside the box) and note.
 */
export function AddSpecimenModal({ open, result, onClose }: Props) {
  const { t } = useTranslation('review');
  const { t: tr } = useTranslation('results');
  const { message } = App.useApp();
  const review = useReviewMutation();
  const img = useRef<HTMLImageElement>(null);
  const start = useRef<{ x: number; y: number } | null>(null);
  const [box, setBox] = useState<Box | null>(null);
  const [size, setSize] = useState<{ w: number; h: number } | null>(null);
  const [form] = Form.useForm<{ kind?: SpecimenKind; ppd?: number | null; note?: string }>();
  const touch = useSyncExternalStore(subscribeCoarse, isCoarse);

  const point = (e: PointerEvent) => {
    const r = (img.current as HTMLImageElement).getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };
  const onDown = (e: PointerEvent<HTMLDivElement>) => {
    if (!img.current) return;
    e.preventDefault();
    e.currentTarget.setPointerCapture(e.pointerId);
    start.current = point(e);
    setBox(null);
  };
  const onMove = (e: PointerEvent<HTMLDivElement>) => {
    if (!start.current || !img.current) return;
    setBox(boxFrom(start.current, point(e), img.current));
  };
  const onUp = (e: PointerEvent<HTMLDivElement>) => {
    if (!start.current || !img.current) return;
    setBox(boxFrom(start.current, point(e), img.current));
    start.current = null;
  };

  const tooSmall = box !== null && (box[2] < SPECIMEN_BOX_MIN || box[3] < SPECIMEN_BOX_MIN);
  const pct = (v: number, of: number | undefined) => `${of ? (v / of) * 100 : 0}%`;
  const outline = (b: Box, key: string, className: string, label?: string) => (
    <div
      key={key}
      className={className}
      style={{
        left: pct(b[0], size?.w),
        top: pct(b[1], size?.h),
        width: pct(b[2], size?.w),
        height: pct(b[3], size?.h),
      }}
    >
      {label && <span>{label}</span>}
    </div>
  );

  const save = async () => {
    if (!box || tooSmall) return;
    const v = await form.validateFields();
    try {
      await review.mutateAsync({
        kind: 'add',
        resultId: result.id,
        body: {
          box,
          ...(v.kind ? { kind: v.kind } : {}),
          ...(v.ppd !== null && v.ppd !== undefined ? { ppd: v.ppd } : {}),
          ...(v.note?.trim() ? { note: v.note.trim() } : {}),
        },
      });
      message.success(t('saved'));
      setBox(null);
      form.resetFields();
      onClose();
    } catch (err) {
      message.error(reviewErrorMessage(t, err));
    }
  };

  return (
    <Modal
      open={open}
      title={t('add.title')}
      width={900}
      onCancel={onClose}
      destroyOnHidden
      className="review-add-modal"
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('add.cancel')}
        </Button>,
        <Button
          key="save"
          type="primary"
          disabled={!box || tooSmall}
          loading={review.isPending}
          onClick={() => void save()}
          data-testid="review-add-save"
        >
          {t('add.save')}
        </Button>,
      ]}
    >
      <p className="review-add-hint" data-testid="review-add-hint">
        {t(touch ? 'add.hint_touch' : 'add.hint')}
      </p>
      {result.originalImageUrl ? (
        <div
          className="review-draw"
          data-testid="review-draw"
          onPointerDown={onDown}
          onPointerMove={onMove}
          onPointerUp={onUp}
          onPointerCancel={() => (start.current = null)}
        >
          <img
            ref={img}
            src={result.originalImageUrl}
            alt={result.imageName}
            draggable={false}
            onLoad={(e) => setSize({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight })}
          />
          {size &&
            result.specimens.map((s) =>
              s.box
                ? outline(
                    s.box,
                    `s${s.index}`,
                    `review-draw-existing${s.excluded ? ' is-excluded' : ''}`,
                    tr('specimen.number', { n: s.index }),
                  )
                : null,
            )}
          {size && box && outline(box, 'new', `review-draw-box${tooSmall ? ' is-invalid' : ''}`)}
        </div>
      ) : (
        <div className="review-add-noimage">{t('add.no_image')}</div>
      )}
      <div className="review-add-box" data-testid="review-add-box">
        {box
          ? tooSmall
            ? t('add.too_small')
            : t('add.box', { x: box[0], y: box[1], w: box[2], h: box[3] })
          : t('add.no_box')}
      </div>
      <Form form={form} layout="inline" className="review-add-form">
        <Form.Item name="kind" label={t('add.kind')}>
          <Select
            allowClear
            style={{ minWidth: 140 }}
            options={SPECIMEN_KINDS.map((k) => ({ value: k, label: tr(`specimen.kind.${k}`) }))}
            data-testid="review-add-kind"
          />
        </Form.Item>
        <Form.Item name="ppd" label={t('add.ppd')} rules={[{ type: 'number', min: PPD_MIN, max: PPD_MAX }]}>
          <InputNumber
            min={PPD_MIN}
            max={PPD_MAX}
            step={0.1}
            precision={2}
            placeholder={t('add.ppd_placeholder')}
            style={{ width: 160 }}
            data-testid="review-add-ppd"
          />
        </Form.Item>
        <Form.Item name="note" label={t('add.note')} className="review-add-note">
          <Input maxLength={REVIEW_NOTE_MAX} data-testid="review-add-note" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
