// A pool worker that crashes or hangs on request, to prove the pool replaces it. Speaks the real protocol.
import { parentPort } from 'node:worker_threads';
import { failedResult } from '../../src/pipeline/analyse-image.js';
import type { AnalyseRequest } from '../../src/pool/messages.js';

parentPort!.postMessage({ type: 'ready' });
parentPort!.on('message', (msg: AnalyseRequest) => {
  if (msg.input === 'crash') throw new Error('worker blew up');
  if (msg.input === 'hang') for (;;);
  const result = {
    ...failedResult('no_specimen_found', 'fine', performance.now()),
    error_message: `ok ${String(msg.input)}`,
  };
  parentPort!.postMessage({ type: 'result', id: msg.id, result });
});
