import { parseStoredSpecimens } from './stored-specimens.js';

/**
 * The one owner of the result-file layout in storage: `results/<task>/<image>/` holds one result's files, the
 * same keys on every retry (scoring writes them, review adds specimens' files, deletes and the storage sweeps
 * find them).
 */

/** `results/<task>/`: every file of a task's results. */
export function taskResultsPrefix(taskId: number): string {
  return `results/${taskId}/`;
}

/** The storage keys of one result's files: `results/<task>/<image>/...`, the same on every retry. */
export function resultKeyPrefix(taskId: number, imageId: number): string {
  return `${taskResultsPrefix(taskId)}${imageId}/`;
}

/** The overview's key: the same for a scored and a refused image, so a retry overwrites it. */
export function overviewKey(taskId: number, imageId: number): string {
  return `${resultKeyPrefix(taskId, imageId)}overlay.webp`;
}

/** The key of the engine's `kind` image (`cut2`, `pred`) of the `n`th specimen (from 1). */
export function specimenImageKey(taskId: number, imageId: number, kind: 'cut2' | 'pred', n: number): string {
  return `${resultKeyPrefix(taskId, imageId)}${kind}_${n}.webp`;
}

/** The base of the files of a specimen a reviewer added (`-cut.webp`, `-pred.webp` follow). */
export function addedSpecimenKeyBase(taskId: number, imageId: number, id: string): string {
  return `${resultKeyPrefix(taskId, imageId)}added-${id}`;
}

const RESULT_KEY = /^results\/(\d{1,15})\/(\d{1,15})\//;

/** The (task, image) a result file belongs to, or null for a key that is not a result file. */
export function resultKeyOwner(key: string): { taskId: number; imageId: number } | null {
  const m = RESULT_KEY.exec(key);
  return m ? { taskId: Number(m[1]), imageId: Number(m[2]) } : null;
}

/** The stored files of a result row: its overview (`oss_key`), its cut/prediction images and every specimen's. */
export function resultFileKeys(row: { oss_key: string | null; vis_keys: string; specimens: string }): string[] {
  const vis = JSON.parse(row.vis_keys) as Record<string, string>;
  const keys = new Set<string>(row.oss_key ? [row.oss_key] : []);
  for (const key of Object.values(vis)) keys.add(key);
  for (const s of parseStoredSpecimens(row.specimens)) {
    if (s.cut_key) keys.add(s.cut_key);
    if (s.pred_key) keys.add(s.pred_key);
  }
  return [...keys];
}
