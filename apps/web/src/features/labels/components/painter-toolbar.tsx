import {
  AimOutlined,
  CompressOutlined,
  DragOutlined,
  EyeInvisibleOutlined,
  EyeOutlined,
  RedoOutlined,
  UndoOutlined,
  ZoomInOutlined,
  ZoomOutOutlined,
} from '@ant-design/icons';
import { Button, Select, Slider, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { cssColour, LABEL_CLASSES } from '../label-classes';
import type { Tool } from './painter-stage';

interface Props {
  tool: Tool;
  value: number;
  /** the class the eraser clears (null: every class) */
  eraseOnly: number | null;
  radius: number;
  canPaint: boolean;
  /** why painting is off (the role), for the tools' tooltips */
  paintReason: string | undefined;
  canUndo: boolean;
  canRedo: boolean;
  zoomPercent: number;
  showProposal: boolean;
  proposalLoading: boolean;
  labelOpacity: number;
  /** labelled pixels per value 0-4 on the painter's grid */
  counts: number[];
  onPick: (tool: Tool, value?: number) => void;
  onEraseOnly: (value: number | null) => void;
  onRadius: (radius: number) => void;
  onUndo: () => void;
  onRedo: () => void;
  onZoom: (factor: number) => void;
  onFit: () => void;
  onToggleProposal: () => void;
  onOpacity: (opacity: number) => void;
}

export const MIN_RADIUS = 1;
export const MAX_RADIUS = 150;

/** The painter's tools: the classes (also the legend, with their share), eraser, take proposal, hand, size, view. */
export function PainterToolbar(p: Props) {
  const { t } = useTranslation('labels');
  const total = p.counts.reduce((a, b) => a + b, 0) || 1;
  const tip = (text: string) => (p.canPaint ? text : (p.paintReason ?? text));
  return (
    <div className="label-painter-tools" data-testid="label-tools">
      <div className="label-painter-group label-painter-legend" role="group" aria-label={t('legend')}>
        {LABEL_CLASSES.map((c) => {
          const share = ((p.counts[c.value] ?? 0) / total) * 100;
          const active = p.canPaint && p.tool === 'brush' && p.value === c.value;
          return (
            <Tooltip key={c.key} title={tip(t(`class_hint.${c.key}`))}>
              <button
                type="button"
                className={`label-class${active ? ' is-active' : ''}`}
                data-class={c.key}
                aria-pressed={active}
                disabled={!p.canPaint}
                onClick={() => p.onPick('brush', c.value)}
              >
                <span className="label-swatch" style={{ background: cssColour(c.value) }}>
                  {c.value}
                </span>
                <span className="label-class-name">{t(`class.${c.key}`)}</span>
                <span className="label-class-share" data-testid={`share-${c.key}`}>
                  {share > 0 && share < 0.1 ? '<0.1' : share.toFixed(1)}%
                </span>
              </button>
            </Tooltip>
          );
        })}
      </div>
      <div className="label-painter-group">
        <Tooltip title={tip(t('tool.eraser'))}>
          <Button
            type={p.canPaint && p.tool === 'eraser' ? 'primary' : 'default'}
            disabled={!p.canPaint}
            data-testid="tool-eraser"
            onClick={() => p.onPick('eraser')}
          >
            <span className="label-eraser-icon" aria-hidden />
            <span className="label-tool-text">{t('tool.eraser_short')}</span>
          </Button>
        </Tooltip>
        {p.canPaint && p.tool === 'eraser' && (
          <Select
            className="label-erase-only"
            data-testid="eraser-class"
            aria-label={t('tool.erase_only')}
            popupMatchSelectWidth={false}
            // inside the painter, which covers the page above the layer antd puts its popups on
            getPopupContainer={(trigger: HTMLElement) => trigger.parentElement ?? document.body}
            value={p.eraseOnly ?? 0}
            onChange={(v: number) => p.onEraseOnly(v === 0 ? null : v)}
            options={[
              { value: 0, label: t('tool.erase_every') },
              ...LABEL_CLASSES.map((c) => ({ value: c.value, label: t(`class.${c.key}`) })),
            ]}
          />
        )}
        <Tooltip title={tip(t('tool.take'))}>
          <Button
            type={p.canPaint && p.tool === 'take' ? 'primary' : 'default'}
            disabled={!p.canPaint}
            icon={<AimOutlined />}
            data-testid="tool-take"
            onClick={() => p.onPick('take')}
          >
            <span className="label-tool-text">{t('tool.take_short')}</span>
          </Button>
        </Tooltip>
        <Tooltip title={t('tool.hand')}>
          <Button
            type={!p.canPaint || p.tool === 'hand' ? 'primary' : 'default'}
            icon={<DragOutlined />}
            aria-label={t('tool.hand')}
            data-testid="tool-hand"
            onClick={() => p.onPick('hand')}
          />
        </Tooltip>
      </div>
      {p.canPaint && (
        <div className="label-painter-group label-painter-size">
          <span className="label-painter-caption">{t('brush_size')}</span>
          <Slider
            min={MIN_RADIUS}
            max={MAX_RADIUS}
            value={p.radius}
            onChange={(v) => p.onRadius(v)}
            tooltip={{ formatter: (v) => `${(v ?? 0) * 2} px` }}
            aria-label={t('brush_size')}
          />
        </div>
      )}
      {p.canPaint && (
        <div className="label-painter-group">
          <Tooltip title={t('undo')}>
            <Button icon={<UndoOutlined />} disabled={!p.canUndo} onClick={p.onUndo} aria-label={t('undo')} />
          </Tooltip>
          <Tooltip title={t('redo')}>
            <Button icon={<RedoOutlined />} disabled={!p.canRedo} onClick={p.onRedo} aria-label={t('redo')} />
          </Tooltip>
        </div>
      )}
      <div className="label-painter-group">
        <Tooltip title={t('zoom_out')}>
          <Button icon={<ZoomOutOutlined />} onClick={() => p.onZoom(1 / 1.5)} aria-label={t('zoom_out')} />
        </Tooltip>
        <span className="label-painter-zoom" data-testid="label-zoom">
          {Math.round(p.zoomPercent)}%
        </span>
        <Tooltip title={t('zoom_in')}>
          <Button icon={<ZoomInOutlined />} onClick={() => p.onZoom(1.5)} aria-label={t('zoom_in')} />
        </Tooltip>
        <Tooltip title={t('fit')}>
          <Button icon={<CompressOutlined />} onClick={p.onFit} aria-label={t('fit')} data-testid="label-fit" />
        </Tooltip>
      </div>
      <div className="label-painter-group">
        <Tooltip title={t('proposal_hint')}>
          <Button
            icon={p.showProposal ? <EyeOutlined /> : <EyeInvisibleOutlined />}
            loading={p.proposalLoading}
            type={p.showProposal ? 'primary' : 'default'}
            ghost={p.showProposal}
            onClick={p.onToggleProposal}
            data-testid="toggle-proposal"
          >
            <span className="label-tool-text">{t('proposal')}</span>
          </Button>
        </Tooltip>
        <span className="label-painter-caption">{t('opacity')}</span>
        <Slider
          className="label-painter-opacity"
          min={0.1}
          max={1}
          step={0.05}
          value={p.labelOpacity}
          onChange={(v) => p.onOpacity(v)}
          tooltip={{ formatter: (v) => `${Math.round((v ?? 0) * 100)}%` }}
          aria-label={t('opacity')}
        />
      </div>
    </div>
  );
}
