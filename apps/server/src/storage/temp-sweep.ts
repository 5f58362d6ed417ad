import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Temp folders of processes on another machine (a shared DATA_DIR) are judged by age only. */
const STALE_MS = 6 * 60 * 60 * 1000;

const prepared = new Set<string>();

/**
 * This process's own temp folder, `DATA_DIR/tmp/<host>.<pid>` (same filesystem as the blobs, so a rename
 * into storage is atomic). Owning a folder per process is what lets a start remove what a crashed process
 * left at once, while the temp files of a live process on the same DATA_DIR (a worker process) stay. A
 * folder already there when this process first asks for it was left by an earlier process with the same
 * pid (containers restart with the same pid): it is emptied.
 */
export function processTempDir(dataDir: string): string {
  const dir = path.join(dataDir, 'tmp', `${os.hostname()}.${process.pid}`);
  if (!prepared.has(dir)) {
    fs.rmSync(dir, { recursive: true, force: true });
    prepared.add(dir);
  }
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

/** Is `pid` a running process on this machine? (EPERM: it runs, as another user.) */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function newestMtime(dir: string): Promise<number> {
  let newest = (await fsp.stat(dir)).mtimeMs;
  for (const e of await fsp.readdir(dir, { withFileTypes: true })) {
    const stat = await fsp.stat(path.join(dir, e.name)).catch(() => undefined);
    if (stat && stat.mtimeMs > newest) newest = stat.mtimeMs;
  }
  return newest;
}

/**
 * Removes temp files that no live process owns (issue 13: a crashed upload's 697 MB stayed until a start
 * 6 h later): every loose file in DATA_DIR/tmp (the layout before per-process folders), the folders of
 * processes of this machine that are gone, and folders of other machines untouched for `staleMs`.
 * Returns how many files were removed.
 */
export async function sweepTempFiles(dataDir: string, now = Date.now(), staleMs = STALE_MS): Promise<number> {
  const root = path.join(dataDir, 'tmp');
  const own = path.basename(processTempDir(dataDir));
  const host = os.hostname();
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(root, { withFileTypes: true });
  } catch {
    return 0;
  }
  let removed = 0;
  for (const e of entries) {
    const target = path.join(root, e.name);
    try {
      if (e.isDirectory()) {
        if (e.name === own) continue;
        const m = /^(.+)\.(\d+)$/.exec(e.name);
        const gone = m && m[1] === host ? !isAlive(Number(m[2])) : now - (await newestMtime(target)) > staleMs;
        if (!gone) continue;
        removed += (await fsp.readdir(target, { recursive: true })).length;
        await fsp.rm(target, { recursive: true, force: true });
      } else {
        await fsp.rm(target, { force: true });
        removed += 1;
      }
    } catch {
      // gone meanwhile, or not ours to remove: nothing to do
    }
  }
  return removed;
}
