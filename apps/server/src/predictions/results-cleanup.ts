/** The stored files of a result row: its overview (`oss_key`) and its cut/prediction images. */
export function resultFileKeys(row: { oss_key: string | null; vis_keys: string }): string[] {
  const vis = JSON.parse(row.vis_keys) as Record<string, string>;
  return [...(row.oss_key ? [row.oss_key] : []), ...Object.values(vis)];
}

