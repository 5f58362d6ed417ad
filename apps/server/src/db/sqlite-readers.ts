import os from 'node:os';
import { Piscina } from 'piscina';
import type { SqliteRead } from './sqlite-reader.worker.js';

/**
 * Reader threads for the SQLite database (WAL lets them read while the main connection writes). Two uses:
 * a heavy read (the group summary over 100 000 results) no longer blocks the event loop, and a read that
 * splits into parts runs its parts on several cores at once.
 */
export class SqliteReaders {
  private readonly pool: Piscina;

  constructor(
    private readonly file: string,
    /** how many threads, and so how many parts a split read is cut into */
    readonly threads = Math.max(1, Math.min(4, os.availableParallelism())),
  ) {
    // From sources (Vitest), a plain-JS bootstrap registers tsx in the thread before loading the .ts worker.
    const fromSources = import.meta.url.endsWith('.ts');
    const worker = new URL(
      fromSources ? './sqlite-reader.tsx-bootstrap.mjs' : './sqlite-reader.worker.js',
      import.meta.url,
    );
    this.pool = new Piscina({
      filename: worker.href,
      minThreads: 0,
      maxThreads: threads,
      // Idle threads end after a minute; the next read starts one again (a few milliseconds).
      idleTimeout: 60_000,
    });
  }

  /** The rows of one SELECT (compiled SQL and its parameters). */
  all<Row>(sql: string, parameters: readonly unknown[]): Promise<Row[]> {
    const task: SqliteRead = { file: this.file, sql, parameters };
    return this.pool.run(task) as Promise<Row[]>;
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }
}
