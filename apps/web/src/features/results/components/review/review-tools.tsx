import { HistoryOutlined, LeftOutlined, PlusSquareOutlined, RightOutlined } from '@ant-design/icons';
import { App, Button } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ResultView } from '../../../../lib/normalize-result';
import { useCan } from '../../../../lib/auth';
import { useReviewMutation } from '../../api/review-api';
import { AddSpecimenModal } from './add-specimen-modal';
import { ReviewHistoryModal } from './review-history-modal';
import { reviewErrorMessage } from './review-error';
import { nextReviewTarget, reviewTarget } from './review-target';
import './review.css';

interface Props {
  result: ResultView;
  /** moves to the next / previous result of the list (the Results screen's filter, e.g. "needs review") */
  onNext?: (() => void) | undefined;
  onPrev?: (() => void) | undefined;
  /** 1-based position in the list and its length */
  position?: { current: number; total: number } | undefined;
  /** the specimen the reviewer picked for the keys (null: the default, see reviewTarget) */
  picked: number | null;
  /** the keys moved on to another specimen of this result */
  onPick: (index: number | null) => void;
}

/** Inputs whose keys are their own: text is typed there. A checkbox or radio (e.g. "only those needing review") is not. */
const KEY_FREE_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file']);
const typing = (el: EventTarget | null) =>
  el instanceof HTMLElement &&
  (el.isContentEditable ||
    (el instanceof HTMLInputElement && !KEY_FREE_INPUTS.has(el.type)) ||
    ['TEXTAREA', 'SELECT'].includes(el.tagName) ||
    el.getAttribute('role') === 'spinbutton' ||
    el.getAttribute('role') === 'combobox');

/**
 * The review toolbar of the result detail: add a missed specimen (draw a box), the history, previous/next, and
 * the keys that clear a list of results quickly: N / P next and previous, A accept the engine's value of the
 * specimen marked "next to review", X exclude it; once none is left the next result opens.
 */
export function ReviewTools({ result, onNext, onPrev, position, picked, onPick }: Props) {
  const { t } = useTranslation('review');
  const { message } = App.useApp();
  const review = useReviewMutation();
  const [adding, setAdding] = useState(false);
  const [historyOpen, setHistoryOpen] = useState(false);
  const { can } = useCan();
  const latest = useRef({ result, onNext, onPrev, dialogs: false, locked: false });
  latest.current = { result, onNext, onPrev, dialogs: adding || historyOpen, locked: !can('change') };
  // Keys pressed while a change is still on its way wait their turn (none is dropped), each acting on the
  // result as the change before it left it.
  const queue = useRef<Promise<void>>(Promise.resolve());
  const current = useRef(result);
  current.current = result;
  // The picked specimen as the keys see it: a key moves it before the render that follows.
  const pickedRef = useRef({ resultId: result.id, index: picked });
  if (pickedRef.current.resultId !== result.id || pickedRef.current.index !== picked)
    pickedRef.current = { resultId: result.id, index: picked };
  const onPickRef = useRef(onPick);
  onPickRef.current = onPick;

  useEffect(() => {
    const act = (key: 'a' | 'x') => async () => {
      const r = current.current;
      const target = reviewTarget(r, pickedRef.current.resultId === r.id ? pickedRef.current.index : null);
      if (!target) return;
      const body = key === 'a' ? { ppd: null } : { excluded: true };
      try {
        const updated = await review.mutateAsync({ kind: 'patch', resultId: r.id, index: target.index, body });
        if (current.current.id === updated.id) current.current = updated;
        if (latest.current.result.id !== updated.id) return;
        const next = nextReviewTarget(updated, target);
        if (next === null && latest.current.onNext) latest.current.onNext();
        else {
          pickedRef.current = { resultId: updated.id, index: next };
          onPickRef.current(next);
        }
      } catch (err) {
        message.error(reviewErrorMessage(t, err));
      }
    };
    const onKey = (e: KeyboardEvent) => {
      const { onNext: next, onPrev: prev, dialogs } = latest.current;
      if (dialogs || e.ctrlKey || e.metaKey || e.altKey || typing(e.target)) return;
      // A popover form (set PPD) has the focus inside it, or the full-screen preview is on top: their keys are their own.
      if (document.querySelector('.ant-popover:not(.ant-popover-hidden) input, [data-testid="result-fullscreen"]'))
        return;
      const key = e.key.toLowerCase();
      if (key === 'n' && next) {
        e.preventDefault();
        next();
      } else if (key === 'p' && prev) {
        e.preventDefault();
        prev();
      } else if ((key === 'a' || key === 'x') && !latest.current.locked) {
        e.preventDefault();
        queue.current = queue.current.then(act(key));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [review, message, t]);

  const scored = result.ppdValue !== null && result.errorCode === null;
  return (
    <div className="review-tools" data-testid="review-tools">
      <div className="review-tools-buttons">
        {scored && can('change') && (
          <Button size="small" icon={<PlusSquareOutlined />} onClick={() => setAdding(true)} data-testid="review-add">
            {t('tools.add')}
          </Button>
        )}
        <Button
          size="small"
          icon={<HistoryOutlined />}
          onClick={() => setHistoryOpen(true)}
          data-testid="review-history-button"
        >
          {t('tools.history')}
        </Button>
        {(onPrev || onNext) && (
          <span className="review-tools-nav">
            <Button
              size="small"
              icon={<LeftOutlined />}
              onClick={onPrev}
              disabled={!onPrev}
              aria-label={t('tools.previous')}
              title={t('tools.previous')}
              data-testid="review-prev"
            />
            {position && (
              <span className="review-tools-position" data-testid="review-position">
                {t('tools.position', { current: position.current, total: position.total })}
              </span>
            )}
            <Button
              size="small"
              icon={<RightOutlined />}
              onClick={onNext}
              disabled={!onNext}
              aria-label={t('tools.next')}
              title={t('tools.next')}
              data-testid="review-next"
            />
          </span>
        )}
      </div>
      {/* The keys change results: a viewer (read-only) gets no hint of them. */}
      {scored && can('change') && (
        <div className="review-tools-keys" data-testid="review-keys">
          {t('tools.keys')}
        </div>
      )}
      {adding && <AddSpecimenModal open={adding} result={result} onClose={() => setAdding(false)} />}
      {historyOpen && (
        <ReviewHistoryModal open={historyOpen} resultId={result.id} onClose={() => setHistoryOpen(false)} />
      )}
    </div>
  );
}
