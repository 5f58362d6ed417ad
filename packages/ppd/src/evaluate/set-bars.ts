import path from 'node:path';
import { summarise, type PhotoOutcome } from './compare.js';
import { LEAF_BY_EYE } from './real-sets.js';

/**
 * The bars each real set must meet (issue 22), one line each on where the number comes from. `ppd evaluate`
 * prints whether each is met and the CI tests (test/real-sets) assert them, so both judge alike.
 */
export const BARS = {
  /** issue 22 "cassava slices keep >= 95 % found and slice MAE <= 0.45" (over roots + tray: 30/31, 0.45) */
  slicesFound: 0.95,
  slicesMae: 0.45,
  /** no loss on the roots set alone (2026-11-27, engine 9062bb1: 15/16 found, MAE 0.56 over the 12 crops) */
  rootsFound: 15 / 16,
  rootsMae: 0.6,
  /** no loss on the tray alone (same engine: 15/15 whole, no extra, MAE 0.35 against careful by-eye scores) */
  trayMae: 0.45,
  /** issue 22 "cbsd-labelled held-out MAE <= 0.45"; found as every cassava slice */
  heldoutMae: 0.45,
  heldoutFound: 0.95,
  /** issue 22 "healthy detached leaves read < 1, mosaic leaves within 1.5 of the by-eye values in the README" */
  healthyLeafBelow: 1,
  mosaicLeafWithin: 1.5,
};

export type Bars = { readonly [K in keyof typeof BARS]: number };

/**
 * What CI holds the engine to today: the bars where the engine meets them, and where it does not yet, a
 * floor just under today's reading so that no set can lose ground unseen (`ppd evaluate` still reports the
 * issue's bars as missed). Raise a floor when the engine improves; never lower one to let a change through.
 */
export const CI_FLOORS: Bars = {
  ...BARS,
  /**
   * engine of issue 22's cut-out reading (models/cut-out-lesions.ts): 0.650 (0.90 before: the labels count the
   * dark peel ring and the halo of the streaks, read by one luma cut a crop that the engine can only estimate)
   */
  heldoutMae: 0.66,
  /** engine 21d94c5: cropsurv_white_mosaic_3 reads 2.00 against 4 by eye (its large leaflet is mostly clean green) */
  mosaicLeafWithin: 2.1,
};

export interface BarCheck {
  bar: string;
  met: boolean;
  /** what was measured, for the report and a failing test's message */
  got: string;
}

const pct = (v: number | null) => (v === null ? '-' : `${(v * 100).toFixed(1)} %`);
const num = (v: number | null) => (v === null ? '-' : v.toFixed(2));

function foundAndMae(outcomes: PhotoOutcome[], found: number, mae: number): BarCheck[] {
  const s = summarise(outcomes);
  return [
    {
      bar: `found >= ${pct(found)}`,
      met: s.foundShare !== null && s.foundShare >= found - 1e-9,
      got: `${s.matched}/${s.expectedSpecimens} (${pct(s.foundShare)})`,
    },
    {
      bar: `MAE <= ${mae}`,
      met: s.mae !== null && s.mae <= mae,
      got: `MAE ${s.mae === null ? '-' : s.mae.toFixed(3)} (${s.scoredSlices} readings)`,
    },
  ];
}

/**
 * The bars of one set (`roots + tray` for the cassava slices of both) checked on its outcomes; an empty list
 * for a set without bars.
 */
export function checkBars(set: string, outcomes: PhotoOutcome[], bars: Bars = BARS): BarCheck[] {
  switch (set) {
    case 'roots + tray':
      return foundAndMae(outcomes, bars.slicesFound, bars.slicesMae);
    case 'roots':
      return foundAndMae(outcomes, bars.rootsFound, bars.rootsMae);
    case 'tray': {
      const s = summarise(outcomes);
      return [
        ...foundAndMae(outcomes, 1, bars.trayMae),
        { bar: 'no extra specimen', met: s.extra === 0, got: `${s.extra} extra` },
      ];
    }
    case 'cbsd-heldout':
      return foundAndMae(outcomes, bars.heldoutFound, bars.heldoutMae);
    case 'leaves':
      return leafBars(outcomes, bars);
    case 'refusals': {
      const s = summarise(outcomes);
      return [
        {
          bar: 'every photo refused',
          met: s.refusalsGiven === s.refusalsExpected,
          got: `${s.refusalsGiven}/${s.refusalsExpected} refused`,
        },
      ];
    }
    default:
      return [];
  }
}

function leafBars(outcomes: PhotoOutcome[], bars: Bars): BarCheck[] {
  const refused = outcomes.filter((o) => o.error_code !== null);
  const checks: BarCheck[] = [
    {
      bar: 'none refused',
      met: refused.length === 0,
      got: refused.length ? `refused: ${refused.map((o) => path.basename(o.name)).join(', ')}` : 'none refused',
    },
  ];
  const read = (o: PhotoOutcome) => o.specimens[0]?.ppd ?? null;
  const healthy = outcomes.filter((o) => LEAF_BY_EYE[path.basename(o.name)] === 0);
  const mosaic = outcomes.filter((o) => (LEAF_BY_EYE[path.basename(o.name)] ?? 0) > 0);
  const list = (os: PhotoOutcome[]) =>
    os.map((o) => `${path.basename(o.name)} ${num(read(o))}/${LEAF_BY_EYE[path.basename(o.name)]}`).join(', ');
  checks.push({
    bar: `healthy < ${bars.healthyLeafBelow}`,
    met: healthy.every((o) => read(o) !== null && read(o)! < bars.healthyLeafBelow),
    got: list(healthy),
  });
  checks.push({
    bar: `mosaic within ${bars.mosaicLeafWithin} of by eye`,
    met: mosaic.every(
      (o) => read(o) !== null && Math.abs(read(o)! - LEAF_BY_EYE[path.basename(o.name)]!) <= bars.mosaicLeafWithin,
    ),
    got: list(mosaic),
  });
  return checks;
}
