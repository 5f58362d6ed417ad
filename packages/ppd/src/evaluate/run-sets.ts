import type { AnalyseOptions } from '../learned/lab-model-api.js';
import type { AnalysisResult, Engine } from '../types.js';
import { comparePhoto, summarise, type PhotoOutcome, type Summary } from './compare.js';
import type { SetPhoto } from './real-sets.js';
import { checkBars, type BarCheck } from './set-bars.js';

export interface SetOutcome extends PhotoOutcome {
  set: string;
}

export interface SetSummary {
  set: string;
  summary: Summary;
  /** the set's bars (set-bars.ts), each met or not; empty for a set without bars */
  bars: BarCheck[];
}

/**
 * Runs the engine once on every photo (all at once: the engine's pool queues them) and compares each result
 * with its labels; `onResult` sees every result (to write its images) before it is let go. `options` go to
 * every call as they are (specimen kind, lab model); the default is the engine as a new user meets it.
 */
export async function evaluatePhotos(
  engine: Pick<Engine, 'analyse'>,
  photos: SetPhoto[],
  onResult?: (photo: SetPhoto, result: AnalysisResult) => Promise<void> | void,
  options?: AnalyseOptions,
): Promise<SetOutcome[]> {
  return Promise.all(
    photos.map(async (p) => {
      const result = await engine.analyse(p.file, undefined, 'full', options);
      await onResult?.(p, result);
      return { ...comparePhoto(p, result), set: p.set };
    }),
  );
}

/**
 * One summary per set, in the order the sets first appear, each with its bars; with both roots and tray, also
 * their cassava slices together ("roots + tray", the bar for slices from the lab the engine knows).
 */
export function summariseSets(outcomes: SetOutcome[]): SetSummary[] {
  const sets = [...new Set(outcomes.map((o) => o.set))];
  const of = (set: string, os: SetOutcome[]): SetSummary => ({ set, summary: summarise(os), bars: checkBars(set, os) });
  const out = sets.map((set) =>
    of(
      set,
      outcomes.filter((o) => o.set === set),
    ),
  );
  if (sets.includes('roots') && sets.includes('tray')) {
    const at = out.findIndex((s) => s.set === 'tray') + 1;
    out.splice(
      at,
      0,
      of(
        'roots + tray',
        outcomes.filter((o) => o.set === 'roots' || o.set === 'tray'),
      ),
    );
  }
  return out;
}
