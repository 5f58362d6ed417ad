import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import type { DiskStatus } from '@cassavascope/contract';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/** The part of the reserve kept for a start on a full disk (the database's -shm and first WAL pages). */
const START_RESERVE_BYTES = 1024 * 1024;

/**
 * Free space on DATA_DIR and two small reserve files that are given up when the disk is full, so that what
 * frees space still works there: `space-reserve` (DISK_RESERVE_MB) for deletes (SQLite needs a few WAL pages
 * to delete rows), `space-reserve-start` (1 MB) for a start (SQLite creates its -shm file on open, the temp
 * folder needs a block). Each comes back once there is room again.
 */
export class DiskSpace {
  private readonly reservePath: string;
  private readonly startReservePath: string;
  private restoring: Promise<void> | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly reserveBytes: number,
    private readonly lowBytes: number,
    private readonly log: Logger,
  ) {
    this.reservePath = path.join(dataDir, 'space-reserve');
    this.startReservePath = path.join(dataDir, 'space-reserve-start');
  }

  async status(): Promise<DiskStatus> {
    const s = await fsp.statfs(this.dataDir);
    const free = s.bavail * s.bsize;
    return { free_bytes: free, total_bytes: s.blocks * s.bsize, low: free < this.lowBytes };
  }

  /** Less free space than the reserve: writes would fail, deletes may need the reserve. */
  async isNearlyFull(): Promise<boolean> {
    try {
      return (await this.status()).free_bytes < Math.max(this.reserveBytes, START_RESERVE_BYTES);
    } catch {
      return false;
    }
  }

  /** Gives the deletes' reserve back to the file system. True when there was one. */
  releaseReserve(reason: string, file = this.reservePath): boolean {
    try {
      fs.rmSync(file);
      this.log.warn({ reason, file: path.basename(file) }, 'disk nearly full: released a space reserve');
      return true;
    } catch {
      return false;
    }
  }

  /** Before anything else at start: on a full disk the start reserve makes room to open the database. */
  prepareForStart(): void {
    fs.mkdirSync(this.dataDir, { recursive: true });
    let free = Number.POSITIVE_INFINITY;
    try {
      const s = fs.statfsSync(this.dataDir);
      free = s.bavail * s.bsize;
    } catch {
      // no statfs here: nothing to decide
    }
    if (free >= START_RESERVE_BYTES) return;
    if (!this.releaseReserve('starting on a full disk', this.startReservePath))
      this.releaseReserve('starting on a full disk');
  }

  /** Writes the reserves again once the disk has twice their size free (in the background, one at a time). */
  restoreReserve(): Promise<void> {
    this.restoring ??= this.writeReserves().finally(() => (this.restoring = undefined));
    return this.restoring;
  }

  /** Waits for a reserve being written (before DATA_DIR may be removed or the process exits). */
  async settle(): Promise<void> {
    await this.restoring;
  }

  private async writeReserves(): Promise<void> {
    if (this.reserveBytes <= 0) return;
    await this.writeReserve(this.startReservePath, START_RESERVE_BYTES);
    await this.writeReserve(this.reservePath, this.reserveBytes);
  }

  private async writeReserve(file: string, bytes: number): Promise<void> {
    if (fs.existsSync(file)) return;
    const temp = `${file}.part`;
    try {
      if ((await this.status()).free_bytes < bytes * 2) return;
      await fsp.writeFile(temp, Buffer.alloc(bytes));
      await fsp.rename(temp, file);
    } catch (err) {
      await fsp.rm(temp, { force: true }).catch(() => undefined);
      this.log.debug({ err }, 'could not write a space reserve');
    }
  }
}

/**
 * Deletes must work on a full disk (space is freed from the app): a DELETE that arrives when the disk is
 * nearly full first gives up the reserve, so SQLite has the pages it needs; once answered, the reserve is
 * written again if the delete made room.
 */
export function registerSpaceHooks(app: FastifyInstance, space: DiskSpace): void {
  app.addHook('onRequest', async (req) => {
    if (req.method === 'DELETE' && (await space.isNearlyFull())) space.releaseReserve('a delete on a full disk');
  });
  app.addHook('onResponse', async (req) => {
    if (req.method === 'DELETE') void space.restoreReserve();
  });
}
