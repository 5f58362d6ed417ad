import {
  CheckOutlined,
  DeploymentUnitOutlined,
  DownloadOutlined,
  EyeOutlined,
  WarningOutlined,
} from '@ant-design/icons';
import type { MouseEvent, ReactNode } from 'react';
import type { ResultView } from '../../../lib/normalize-result';
import { formatPpd } from '../../../lib/ppd';
import { bandOf } from './severity';
import i18n from '../../../lib/i18n';

/**
 * Texts of the cards, translated once by the collection: thousands of cards mount and unmount while scrolling,
 * so each stays a plain component (no translation hook, no tooltip or skeleton components of its own).
 */
export interface ResultItemLabels {
  preview: string;
  download: string;
  failed: string;
  needsReview: string;
  health: Record<string, string>;
  /** "All tasks": each card names its task (the same photo appears once per task); empty when one task is shown */
  taskNames: Map<number, string> | null;
  /** why a result was not scored, in the UI's language, from its error code */
  failure: (code: string | null) => string;
}

export interface ResultItemProps {
  result: ResultView | undefined;
  index: number;
  selected: boolean;
  labels: ResultItemLabels;
  onOpen: (index: number) => void;
  onPreview: (index: number) => void;
}

/**
 * The picture a card shows: the original's thumbnail when the server sends one (the overview's numbered labels
 * are unreadable at card size; the detail and the preview show it full size), else the overview, else the original.
 */
export const cardImageOf = (r: ResultView) => r.thumbnailUrl ?? r.overlayImageUrl ?? r.originalImageUrl;

const stop = (e: MouseEvent) => e.stopPropagation();

/** The task a result belongs to, on "All tasks" only. */
function TaskLabel({ result, labels }: { result: ResultView; labels: ResultItemLabels }) {
  if (!labels.taskNames || result.taskId === null) return null;
  const name = labels.taskNames.get(result.taskId) ?? `#${result.taskId}`;
  return (
    <span className="result-task-label" title={name} data-testid="result-task-label">
      {name}
    </span>
  );
}

/** The small "needs review" marker of a card or row whose result has a specimen a person should look at. */
function ReviewMark({ label }: { label: string }) {
  return (
    <span className="result-review-mark" title={label} data-testid="result-needs-review">
      <EyeOutlined /> {label}
    </span>
  );
}

/** The badge of a result a reviewer changed (a plain call of i18n: cards stay hook-free; the collection re-renders them on a language change). */
function ReviewedMark() {
  const label = i18n.t('review:card.reviewed');
  return (
    <span className="result-reviewed-mark" title={label} data-testid="result-reviewed">
      <CheckOutlined /> {label}
    </span>
  );
}

/** The lab model a result was scored with; the default engine needs no mark (a plain call of i18n, as above). */
function ModelMark({ result }: { result: ResultView }) {
  if (!result.model) return null;
  const label = i18n.t('results:card.lab_model', { name: result.model.name });
  return (
    <span className="result-model-mark" title={label} data-testid="result-model">
      <DeploymentUnitOutlined /> {result.model.name}
    </span>
  );
}

function HoverActions({
  result,
  index,
  labels,
  onPreview,
}: Pick<ResultItemProps, 'index' | 'labels' | 'onPreview'> & { result: ResultView }) {
  const href = result.originalImageUrl ?? cardImageOf(result);
  return (
    <span className="result-actions">
      <button
        type="button"
        title={labels.preview}
        aria-label={labels.preview}
        data-testid="result-preview"
        onClick={(e) => {
          stop(e);
          onPreview(index);
        }}
      >
        <EyeOutlined />
      </button>
      {href && (
        <a href={href} download={result.imageName} title={labels.download} aria-label={labels.download} onClick={stop}>
          <DownloadOutlined />
        </a>
      )}
    </span>
  );
}

/** The clickable frame of a card or row, coloured by the result's band and marked when selected. */
function ItemFrame({
  kind,
  result,
  index,
  selected,
  onOpen,
  children,
}: Pick<ResultItemProps, 'index' | 'selected' | 'onOpen'> & {
  kind: 'card' | 'row';
  result: ResultView;
  children: ReactNode;
}) {
  const band = bandOf(result.ppdValue) ?? 'failed';
  return (
    <div
      role="button"
      tabIndex={0}
      className={`result-${kind} band-${band}${selected ? ' is-selected' : ''}`}
      data-testid={`result-${kind}`}
      data-result-id={result.id}
      onClick={() => onOpen(index)}
      onKeyDown={(e) => e.key === 'Enter' && onOpen(index)}
    >
      {children}
    </div>
  );
}

/** A grid card coloured by its PPD band: image, PPD (2 decimals), name; preview and download on hover. */
export function ResultCard({ result, index, selected, labels, onOpen, onPreview }: ResultItemProps) {
  if (!result) return <div className="result-card is-loading" aria-busy="true" />;
  const image = cardImageOf(result);
  return (
    <ItemFrame kind="card" result={result} index={index} selected={selected} onOpen={onOpen}>
      <div className="result-card-image">
        {image ? (
          <img src={image} alt={result.imageName} loading="lazy" decoding="async" />
        ) : (
          <WarningOutlined className="result-card-noimage" />
        )}
        <HoverActions result={result} index={index} labels={labels} onPreview={onPreview} />
      </div>
      <div className="result-card-body">
        <span className="result-card-ppd-line">
          <span className="result-card-ppd" data-testid="result-ppd">
            {result.ppdValue === null ? labels.failed : `PPD ${formatPpd(result.ppdValue)}`}
          </span>
          {result.needsReview && <ReviewMark label={labels.needsReview} />}
          {result.reviewed && <ReviewedMark />}
        </span>
        <span className="result-card-name" title={result.imageName}>
          {result.imageName}
        </span>
        <TaskLabel result={result} labels={labels} />
        <ModelMark result={result} />
      </div>
    </ItemFrame>
  );
}

/** A list row: adds the sub-image PPD values, prediction and confidence. */
export function ResultRow({ result, index, selected, labels, onOpen, onPreview }: ResultItemProps) {
  if (!result) return <div className="result-row is-loading" aria-busy="true" />;
  const image = cardImageOf(result);
  return (
    <ItemFrame kind="row" result={result} index={index} selected={selected} onOpen={onOpen}>
      <div className="result-row-thumb">{image && <img src={image} alt="" loading="lazy" decoding="async" />}</div>
      <div className="result-row-name" title={result.imageName}>
        {result.imageName}
        {result.needsReview && <ReviewMark label={labels.needsReview} />}
        {result.reviewed && <ReviewedMark />}
        <TaskLabel result={result} labels={labels} />
        <ModelMark result={result} />
      </div>
      <div className="result-row-ppd">{result.ppdValue === null ? labels.failed : formatPpd(result.ppdValue)}</div>
      <div className="result-row-sub" data-testid="result-sub-values">
        {result.subPpdValues.length > 0 ? result.subPpdValues.map((v) => v.toFixed(2)).join(' / ') : '--'}
      </div>
      <div className="result-row-prediction" title={result.errorMessage ?? undefined}>
        {result.prediction
          ? (labels.health[result.prediction] ?? result.prediction)
          : result.errorCode
            ? labels.failure(result.errorCode)
            : '--'}
      </div>
      {/* A result that was not scored has no confidence to show (the normalised default of 1 is not a measurement). */}
      <div className="result-row-confidence">
        {result.ppdValue === null ? '--' : `${(result.confidence * 100).toFixed(1)}%`}
      </div>
      <HoverActions result={result} index={index} labels={labels} onPreview={onPreview} />
    </ItemFrame>
  );
}
