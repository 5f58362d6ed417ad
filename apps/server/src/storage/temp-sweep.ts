import fsp from 'node:fs/promises';
import path from 'node:path';

/** Temp files older than this are leftovers of a crash, not an upload in progress. */
const STALE_MS = 6 * 60 * 60 * 1000;

/**
 * Removes temp files a crashed process left in DATA_DIR/tmp (a half-received upload, a staged ZIP
 * entry). Only old ones: another process on the same DATA_DIR may be receiving an upload right now.
 * Returns how many were removed.
 */
export async function sweepStaleTempFiles(tempDir: string, now = Date.now(), staleMs = STALE_MS): Promise<number> {
  let names: string[];
  try {
    names = await fsp.readdir(tempDir);
  } catch {
    return 0;
  }
  let removed = 0;
  for (const name of names) {
    const file = path.join(tempDir, name);
    try {
      const stat = await fsp.stat(file);
      if (stat.isFile() && now - stat.mtimeMs > staleMs) {
        await fsp.rm(file, { force: true });
        removed += 1;
      }
    } catch {
      // gone meanwhile: nothing to do
    }
  }
  return removed;
}
