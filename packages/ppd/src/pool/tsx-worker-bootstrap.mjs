// Used only when the engine runs from its TypeScript sources (Vitest, tsx): registers tsx inside the worker
// thread, then loads the real worker entry named by the pool.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
