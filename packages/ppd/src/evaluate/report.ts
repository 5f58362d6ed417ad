import type { Summary } from './compare.js';
import type { SetOutcome, SetSummary } from './run-sets.js';
import type { BarCheck } from './set-bars.js';

/** Plain-text reports of `ppd evaluate`: a row per photo, grouped by set, and one table of the sets. */

const fmt = (v: number | null, d = 2) => (v === null ? '-' : v.toFixed(d));
const pct = (v: number | null) => (v === null ? '-' : `${(v * 100).toFixed(1)} %`);

export function photoRows(outcomes: SetOutcome[]): string {
  const lines = [
    'set | photo | expect | outcome | found/expected (whole) | extra | readings (engine/truth, confidence)',
  ];
  for (const o of outcomes) {
    const readings = o.specimens
      .map(
        (s) =>
          `${s.wholePhoto ? 'photo' : (s.index ?? 'missed')}:${fmt(s.ppd)}/${fmt(s.truthPpd)}` +
          (s.confidence === null ? '' : ` c${fmt(s.confidence)}`),
      )
      .join(' ');
    const outcome = `${o.error_code ?? `scored ${o.found}`}${o.ok ? '' : ' (WRONG)'}`;
    lines.push(
      `${o.set} | ${o.name} | ${o.expect} | ${outcome} | ${o.matched}/${o.expected} (${o.whole}) | ${o.extra} | ${readings}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/** `met`, or the bars missed (`short`) and what was measured (in full). */
export function barsText(bars: BarCheck[], short = false): string {
  if (bars.length === 0) return '-';
  const missed = bars.filter((b) => !b.met);
  if (missed.length === 0) return 'met';
  return `MISSED ${missed.map((b) => (short ? b.bar : `${b.bar}: ${b.got}`)).join('; ')}`;
}

export function summaryLine(label: string, s: Summary): string {
  return (
    `${label}: ${s.photos} photos; specimens ${s.matched}/${s.expectedSpecimens} found (${pct(s.foundShare)}, ` +
    `${s.whole} whole), ${s.extra} extra; wrongly refused ${s.wrongRefusals}; ` +
    `refusals ${s.refusalsGiven}/${s.refusalsExpected}; readings ${s.scoredSlices}: MAE ${fmt(s.mae)}, ` +
    `bias ${fmt(s.bias)}, r ${fmt(s.r)}, bands ${pct(s.bandAgreement)}; confidence AUC ${fmt(s.confidenceAuc)}`
  );
}

/** The summary table (Markdown, as docs/model.md quotes it). */
export function summaryTable(sets: SetSummary[]): string {
  const head =
    '| set | photos | found | extra | wrongly refused | refused | readings | MAE | bias | r | bands | bars |\n' +
    '|---|---|---|---|---|---|---|---|---|---|---|---|\n';
  const rows = sets.map(({ set, summary: s, bars }) => {
    const found = s.expectedSpecimens ? `${s.matched}/${s.expectedSpecimens} (${pct(s.foundShare)})` : '-';
    const refused = s.refusalsExpected ? `${s.refusalsGiven}/${s.refusalsExpected}` : '-';
    return (
      `| ${set} | ${s.photos} | ${found} | ${s.extra} | ${s.wrongRefusals} | ${refused} | ${s.scoredSlices} | ` +
      `${fmt(s.mae)} | ${fmt(s.bias)} | ${fmt(s.r)} | ${pct(s.bandAgreement)} | ${barsText(bars, true)} |`
    );
  });
  return `${head}${rows.join('\n')}\n`;
}
