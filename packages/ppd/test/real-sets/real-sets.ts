import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { createEngine, type Engine } from '../../src/index.js';
import type { PhotoOutcome } from '../../src/evaluate/compare.js';
import { checkBars, CI_FLOORS } from '../../src/evaluate/set-bars.js';
import { readRealSets, type RealSetName } from '../../src/evaluate/real-sets.js';
import { evaluatePhotos, type SetOutcome } from '../../src/evaluate/run-sets.js';

/**
 * The real photos (../shared/real-photos beside the project: never copied into the repository, the sources
 * state no licence); every set test skips when they are absent. Each test file runs the engine once on each
 * photo of its sets, in `beforeAll`, and its tests read those outcomes.
 */
const here = path.dirname(fileURLToPath(import.meta.url));
export const REAL = process.env.REAL_PHOTOS_DIR ?? path.resolve(here, '../../../../../shared/real-photos');
export const present = fs.existsSync(path.join(REAL, 'truth.json'));

/**
 * The bars of every set live in src/evaluate/set-bars.ts, shared with `ppd evaluate`'s report: CI asserts
 * CI_FLOORS, the issue's bars where the engine meets them and a no-loss floor where it does not yet.
 */
export { CI_FLOORS as BARS } from '../../src/evaluate/set-bars.js';

/** Asserts every bar of `set` on `outcomes`, each failure naming the bar and what was measured. */
export function expectBars(set: string, outcomes: PhotoOutcome[]): void {
  const bars = checkBars(set, outcomes, CI_FLOORS);
  expect(bars.length, set).toBeGreaterThan(0);
  for (const b of bars) expect(b.met, `${set}: ${b.bar}; got ${b.got}`).toBe(true);
}

/** Starts an engine and judges every photo of the sets once; call from `beforeAll`. */
export async function runSets(names: RealSetName[]): Promise<{ engine: Engine; outcomes: SetOutcome[] }> {
  const engine = await createEngine({ workers: 2 });
  const outcomes = await evaluatePhotos(engine, await readRealSets(REAL, names));
  return { engine, outcomes };
}

export const named = (outcomes: SetOutcome[], base: string) => {
  const o = outcomes.find((x) => path.basename(x.name) === base);
  if (!o) throw new Error(`${base} is not among the photos`);
  return o;
};
