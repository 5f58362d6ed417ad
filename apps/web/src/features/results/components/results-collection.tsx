import { forwardRef, memo, useMemo, type HTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { Virtuoso, VirtuosoGrid } from 'react-virtuoso';
import { pageOfIndex, RESULT_PAGE_SIZE, useResultsPage, type ResultFilter } from '../api/get-results-page';
import { ResultCard, ResultRow, type ResultItemLabels, type ResultItemProps } from './result-item';
import type { ResultsListView } from './results-filter-bar';
import { EXPLAINED_FAILURES } from '../failure-codes';

interface Props {
  view: ResultsListView;
  filter: ResultFilter;
  count: number;
  selectedIndex: number;
  onOpen: (index: number) => void;
  onPreview: (index: number) => void;
  /** task names by id: set on "All tasks", where each card names its task */
  taskNames: Map<number, string> | null;
}

/**
 * Each item loads the page it sits on (TanStack Query shares one request per page). Memoised: the virtual
 * list re-renders its items on every range change, and unchanged ones should cost nothing.
 */
const Item = memo(function Item({
  view,
  filter,
  index,
  ...rest
}: Omit<ResultItemProps, 'result'> & { view: ResultsListView; filter: ResultFilter }) {
  const { data } = useResultsPage(filter, pageOfIndex(index));
  const result = data?.items[index % RESULT_PAGE_SIZE];
  return view === 'grid' ? (
    <ResultCard result={result} index={index} {...rest} />
  ) : (
    <ResultRow result={result} index={index} {...rest} />
  );
});

/** Virtuoso sizes its scroller inline (height 100 %): the viewport height minus the header is set the same way. */
const SCROLLER_STYLE = { height: 'calc(100vh - 96px)', minHeight: 360 };

const GridList = forwardRef<HTMLDivElement, HTMLAttributes<HTMLDivElement>>(function GridList(props, ref) {
  return <div ref={ref} {...props} className="results-grid" data-testid="results-grid" />;
});

/**
 * The results of the filter, virtualised (only what is on screen is in the DOM) in a scroller of their own:
 * scrolling the window would slide every card under the shell's translucent (blurred) header, which costs a
 * repaint of the blur per frame without a GPU. A task of 10 000 results stays smooth.
 */
export function ResultsCollection({ view, filter, count, selectedIndex, onOpen, onPreview, taskNames }: Props) {
  const { t } = useTranslation('results');
  const labels = useMemo<ResultItemLabels>(
    () => ({
      preview: t('card.preview'),
      download: t('card.download'),
      failed: t('card.failed'),
      needsReview: t('card.needs_review'),
      health: { healthy: t('health.healthy'), mild: t('health.mild'), severe: t('health.severe') },
      taskNames,
      failure: (code: string | null) => t(`failure.${code && EXPLAINED_FAILURES.has(code) ? code : 'other'}.title`),
    }),
    [t, taskNames],
  );
  const key = JSON.stringify(filter);
  const itemProps = (index: number) => ({
    view,
    filter,
    index,
    labels,
    selected: index === selectedIndex,
    onOpen,
    onPreview,
  });
  if (view === 'grid') {
    return (
      <VirtuosoGrid
        key={`grid:${key}`}
        className="results-scroller"
        data-testid="results-scroller"
        style={SCROLLER_STYLE}
        totalCount={count}
        increaseViewportBy={400}
        components={{ List: GridList }}
        itemClassName="results-grid-item"
        computeItemKey={(index) => `${key}:${index}`}
        itemContent={(index) => <Item {...itemProps(index)} />}
      />
    );
  }
  return (
    <div className="results-list" data-testid="results-list">
      {/* Column headers on the same grid as the rows (the phone layout hides the same columns). */}
      <div className="result-row-head" role="row" data-testid="results-list-head">
        <span />
        <span role="columnheader">{t('list_head.image')}</span>
        <span role="columnheader" className="result-row-ppd">
          {t('list_head.ppd')}
        </span>
        <span role="columnheader" className="result-row-sub">
          {t('list_head.sub')}
        </span>
        <span role="columnheader" className="result-row-prediction">
          {t('list_head.severity')}
        </span>
        <span role="columnheader" className="result-row-confidence">
          {t('list_head.confidence')}
        </span>
        <span className="result-actions" />
      </div>
      <Virtuoso
        key={`list:${key}`}
        className="results-scroller"
        data-testid="results-scroller"
        style={SCROLLER_STYLE}
        totalCount={count}
        fixedItemHeight={72}
        increaseViewportBy={400}
        computeItemKey={(index) => `${key}:${index}`}
        itemContent={(index) => <Item {...itemProps(index)} />}
      />
    </div>
  );
}
