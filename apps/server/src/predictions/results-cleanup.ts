import { parseStoredSpecimens } from './stored-specimens.js';

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
