import type { ResultGroup } from '@cassavascope/contract';
import { PPD_MAX, PPD_MILD_FROM, PPD_SEVERE_FROM } from '@cassavascope/contract';
import { useTranslation } from 'react-i18next';
import { ppdColour } from '../../../lib/ppd';

const ROW = 26;
const LEFT = 150;
const RIGHT = 24;
const TOP = 28;
const WIDTH = 720;

/**
 * Mean PPD per group with its 95 % interval, one row per group on the 0-10 scale, severity bands shaded behind:
 * the chart a breeder puts in a report. Plain SVG (scales with its box); a row is a button that opens its photos.
 */
export function DotPlot({
  groups,
  label,
  onPick,
}: {
  groups: ResultGroup[];
  label: (g: ResultGroup) => string;
  onPick: (g: ResultGroup) => void;
}) {
  const { t } = useTranslation('samples');
  const plotWidth = WIDTH - LEFT - RIGHT;
  const x = (v: number) => LEFT + (Math.max(0, Math.min(PPD_MAX, v)) / PPD_MAX) * plotWidth;
  const height = TOP + groups.length * ROW + 30;
  const bands = [
    { from: 0, to: PPD_MILD_FROM, cls: 'band-healthy' },
    { from: PPD_MILD_FROM, to: PPD_SEVERE_FROM, cls: 'band-mild' },
    { from: PPD_SEVERE_FROM, to: PPD_MAX, cls: 'band-severe' },
  ];
  return (
    <svg
      className="dot-plot"
      viewBox={`0 0 ${WIDTH} ${height}`}
      role="img"
      aria-label={t('plot_label')}
      data-testid="dot-plot"
    >
      {bands.map((b) => (
        <rect
          key={b.cls}
          className={b.cls}
          x={x(b.from)}
          y={TOP - 8}
          width={x(b.to) - x(b.from)}
          height={groups.length * ROW + 8}
        />
      ))}
      {Array.from({ length: PPD_MAX + 1 }, (_v, i) => (
        <g key={i}>
          <line className="dot-plot-grid" x1={x(i)} x2={x(i)} y1={TOP - 8} y2={TOP + groups.length * ROW} />
          <text className="dot-plot-tick" x={x(i)} y={TOP + groups.length * ROW + 16} textAnchor="middle">
            {i}
          </text>
        </g>
      ))}
      <text className="dot-plot-axis" x={LEFT + plotWidth / 2} y={14} textAnchor="middle">
        {t('plot_axis')}
      </text>
      {groups.map((g, i) => {
        const y = TOP + i * ROW + ROW / 2 - 4;
        const name = label(g);
        return (
          <g
            key={name + i}
            className="dot-plot-row"
            role="button"
            tabIndex={0}
            onClick={() => onPick(g)}
            onKeyDown={(e) => (e.key === 'Enter' || e.key === ' ') && onPick(g)}
          >
            <title>{`${name}: ${g.mean ?? '–'} (n = ${g.images})`}</title>
            <rect className="dot-plot-hit" x={0} y={y - ROW / 2 + 2} width={WIDTH} height={ROW - 2} />
            <text className="dot-plot-label" x={LEFT - 10} y={y + 4} textAnchor="end">
              {name.length > 22 ? `${name.slice(0, 21)}…` : name}
            </text>
            {g.ci95 ? (
              <>
                <line className="dot-plot-ci" x1={x(g.ci95[0])} x2={x(g.ci95[1])} y1={y} y2={y} />
                <line className="dot-plot-ci" x1={x(g.ci95[0])} x2={x(g.ci95[0])} y1={y - 5} y2={y + 5} />
                <line className="dot-plot-ci" x1={x(g.ci95[1])} x2={x(g.ci95[1])} y1={y - 5} y2={y + 5} />
              </>
            ) : null}
            {g.mean !== null ? (
              <circle cx={x(g.mean)} cy={y} r={6} fill={ppdColour(g.mean) ?? undefined} className="dot-plot-mean" />
            ) : null}
          </g>
        );
      })}
    </svg>
  );
}
