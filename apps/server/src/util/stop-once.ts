/**
 * A process's stop, run once however many times it is asked for (SIGTERM, SIGINT, a lost parent): `onStop` logs
 * why and closes what the process holds; the process then exits 0, or 1 if closing takes over 30 s.
 */
export function stopOnce(onStop: (reason: string) => Promise<void>): (reason: string) => Promise<void> {
  let stopping = false;
  return async (reason) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(1), 30_000);
    force.unref();
    try {
      await onStop(reason);
    } finally {
      process.exit(0);
    }
  };
}

/** Stops the process on SIGTERM and SIGINT through `stop`. */
export function stopOnSignals(stop: (reason: string) => Promise<void>): void {
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
}
