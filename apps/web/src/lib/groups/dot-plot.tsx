import type { ResultGroup } from '@cassavascope/contract';
import { GROUP_VALUES_MAX, PPD_MAX, PPD_MILD_FROM, PPD_SEVERE_FROM } from '@cassavascope/contract';
import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../format';
import { ppdColour } from '../ppd';

const ROW = 30;
const TOP = 26;
/** A result's dot, and how far dots of one row spread up and down so that equal values stay apart. */
const VALUE_R = 3.5;
const JITTER = [0, -5, 5, -2.5, 2.5, -7.5, 7.5];
const BOTTOM = 44;
/** Narrower than this the chart scrolls sideways rather than shrink its text (a phone's 390 px fits). */
const MIN_WIDTH = 320;
/** Under this width (a phone) the label and n columns are narrower. */
const NARROW = 640;

/** The label column (wide enough for a genotype and its day), how many characters fit it, and the n column. */
const columns = (width: number) =>
  width < NARROW ? { label: 104, chars: 14, n: 36 } : { label: 180, chars: 26, n: 64 };

/** The drawing's width: its box's, in pixels (text stays 12 px on any screen), at least MIN_WIDTH. */
function useBoxWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(720);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const observer = new ResizeObserver((entries) => setWidth(entries[0]?.contentRect.width ?? 720));
    observer.observe(box);
    return () => observer.disconnect();
  }, []);
  return [ref, Math.max(MIN_WIDTH, Math.floor(width))] as const;
}

/**
 * The chart a breeder puts in a report: one row per group on the PPD scale (0-10, severity bands shaded behind),
 * a small grey dot per result, the group's mean as a larger dot coloured by its band with its 95 % interval, and
 * n at the right; both axes are named.
 * Plain SVG drawn at its box's width (a phone scrolls it sideways); a row is a button that opens its group.
 */
export function DotPlot({
  groups,
  label,
  groupAxis,
  onPick,
}: {
  groups: ResultGroup[];
  label: (g: ResultGroup) => string;
  /** the fields grouped by, named: the vertical axis's title */
  groupAxis: string;
  onPick: (g: ResultGroup) => void;
}) {
  const { t } = useTranslation('samples');
  const [boxRef, width] = useBoxWidth();
  const { label: left, chars, n: nColumn } = columns(width);
  const plotWidth = width - left - nColumn - 12;
  const x = (v: number) => left + (Math.max(0, Math.min(PPD_MAX, v)) / PPD_MAX) * plotWidth;
  const rowsHeight = groups.length * ROW;
  const height = TOP + rowsHeight + BOTTOM;
  const bands = [
    { from: 0, to: PPD_MILD_FROM, cls: 'band-healthy' },
    { from: PPD_MILD_FROM, to: PPD_SEVERE_FROM, cls: 'band-mild' },
    { from: PPD_SEVERE_FROM, to: PPD_MAX, cls: 'band-severe' },
  ];
  const dots = groups.every((g) => g.values !== undefined);
  return (
    <div className="dot-plot-box" ref={boxRef}>
      {/* The legend wraps as text does, in any language and width. */}
      <div className="dot-plot-legend">
        {dots ? (
          <span>
            <svg width={12} height={12} aria-hidden>
              <circle cx={6} cy={6} r={VALUE_R} className="dot-plot-value" />
            </svg>
            {t('plot_result')}
          </span>
        ) : null}
        <span>
          <svg width={14} height={14} aria-hidden>
            <circle cx={7} cy={7} r={6} className="dot-plot-mean" fill="rgba(0, 0, 0, 0.55)" />
          </svg>
          {t('plot_mean')}
        </span>
        <span>
          <svg width={32} height={14} aria-hidden>
            <line className="dot-plot-ci" x1={1} x2={31} y1={7} y2={7} />
            <line className="dot-plot-ci" x1={1} x2={1} y1={2} y2={12} />
            <line className="dot-plot-ci" x1={31} x2={31} y1={2} y2={12} />
          </svg>
          {t('plot_ci')}
        </span>
      </div>
      <svg
        className="dot-plot"
        width={width}
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        role="img"
        aria-label={t('plot_label')}
        data-testid="dot-plot"
      >
        <text className="dot-plot-axis" x={12} y={TOP - 10} data-testid="dot-plot-group-axis">
          {groupAxis}
        </text>
        <text className="dot-plot-axis" x={width - 12} y={TOP - 10} textAnchor="end">
          n
        </text>
        {bands.map((b) => (
          <rect key={b.cls} className={b.cls} x={x(b.from)} y={TOP} width={x(b.to) - x(b.from)} height={rowsHeight} />
        ))}
        {Array.from({ length: PPD_MAX + 1 }, (_v, i) => (
          <g key={i}>
            <line className="dot-plot-grid" x1={x(i)} x2={x(i)} y1={TOP} y2={TOP + rowsHeight + 4} />
            <text className="dot-plot-tick" x={x(i)} y={TOP + rowsHeight + 18} textAnchor="middle">
              {i}
            </text>
          </g>
        ))}
        <text
          className="dot-plot-axis"
          x={left + plotWidth / 2}
          y={height - 6}
          textAnchor="middle"
          data-testid="dot-plot-ppd-axis"
        >
          {t('plot_axis')}
        </text>
        {groups.map((g, i) => {
          const y = TOP + i * ROW + ROW / 2;
          const name = label(g);
          return (
            <g
              key={`${name}:${i}`}
              className="dot-plot-row"
              data-testid="dot-plot-row"
              role="button"
              tabIndex={0}
              onClick={() => onPick(g)}
              onKeyDown={(e: KeyboardEvent) => (e.key === 'Enter' || e.key === ' ') && onPick(g)}
            >
              <title>{`${name}: ${g.mean ?? '–'} (n = ${g.images})`}</title>
              <rect className="dot-plot-hit" x={0} y={y - ROW / 2 + 1} width={width} height={ROW - 2} />
              <text className="dot-plot-label" x={left - 10} y={y + 4} textAnchor="end">
                {name.length > chars ? `${name.slice(0, chars - 1)}…` : name}
              </text>
              {(g.values ?? []).map((v, j) => (
                <circle
                  key={j}
                  className="dot-plot-value"
                  cx={x(v)}
                  cy={y + JITTER[j % JITTER.length]!}
                  r={VALUE_R}
                  data-testid="dot-plot-value"
                />
              ))}
              {g.ci95 ? (
                <>
                  <line className="dot-plot-ci" x1={x(g.ci95[0])} x2={x(g.ci95[1])} y1={y} y2={y} />
                  {/* An end past the scale has no cap: the bar runs on (a cap at 0 or 10 would be a false end). */}
                  {g.ci95
                    .filter((end) => end >= 0 && end <= PPD_MAX)
                    .map((end, k) => (
                      <line key={k} className="dot-plot-ci" x1={x(end)} x2={x(end)} y1={y - 6} y2={y + 6} />
                    ))}
                </>
              ) : null}
              {g.mean !== null ? (
                <circle cx={x(g.mean)} cy={y} r={6} fill={ppdColour(g.mean) ?? undefined} className="dot-plot-mean" />
              ) : null}
              <text className="dot-plot-n" x={width - 12} y={y + 4} textAnchor="end" data-testid="dot-plot-n">
                {g.images}
              </text>
            </g>
          );
        })}
      </svg>
      {dots ? null : (
        <div className="dot-plot-note" data-testid="dot-plot-no-values">
          {t('plot_no_values', { max: formatCount(GROUP_VALUES_MAX) })}
        </div>
      )}
    </div>
  );
}
