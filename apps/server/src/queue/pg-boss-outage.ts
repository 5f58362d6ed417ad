import type { Logger } from 'pino';

/**
 * Connection failures of a database outage (a restart, a failover): the server ended the session (57P01-57P03,
 * class 08), or the socket was refused, reset or closed meanwhile.
 */
export function isDatabaseOutage(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const { code, message } = err as { code?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (/^57P0[123]$/.test(code) || /^08/.test(code)) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'EHOSTUNREACH'].includes(code)) return true;
  }
  return typeof message === 'string' && /Connection terminated|Client has encountered a connection error/.test(message);
}

let installed = false;

/**
 * pg-boss 10 ends a job (`complete` or `fail`) in its worker loop without awaiting it: when the database is
 * down at that moment, the promise rejects with nobody to catch it and Node ends the process (issue 26, point 3:
 * a worker died in a `pg_ctl restart` mid-task). Such a rejection is logged and the process carries on: the job
 * stays active in pg-boss until it expires and is retried, which finds its images already scored (a task's
 * progress lives in this app's tables, not in pg-boss). Any other unhandled rejection still ends the process,
 * as Node would.
 */
export function surviveOutageRejections(log: Logger): void {
  if (installed) return;
  installed = true;
  process.on('unhandledRejection', (reason) => {
    if (isDatabaseOutage(reason)) {
      log.warn({ err: reason }, 'the database was unreachable while a job ended; pg-boss retries it once it expires');
      return;
    }
    log.fatal({ err: reason }, 'unhandled rejection');
    // the default behaviour of Node (--unhandled-rejections=throw) for everything else
    process.nextTick(() => {
      throw reason instanceof Error ? reason : new Error(String(reason));
    });
  });
}
