import type { Engine, EngineOptions } from '@cassavascope/ppd';
import { createEngine } from '@cassavascope/ppd';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config.js';

/** Thrown by the stand-in engine when the real one could not start: tasks then fail as a whole. */
export class EngineUnavailableError extends Error {}

/**
 * The server's one engine (a worker-thread pool inside @cassavascope/ppd), shared by the queue and
 * predict_single. When it cannot start (a bad MODEL_PATH), the server still serves everything else and
 * each task fails with the reason in its `error_message`.
 */
export async function createAppEngine(config: AppConfig, log: Logger): Promise<Engine> {
  const options: EngineOptions = { modelPath: config.modelPath, workers: config.workers };
  try {
    return await createEngine(options);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    log.error({ err }, 'the PPD engine could not start');
    return unavailableEngine(config.modelPath ? 'onnx' : 'colour', reason);
  }
}

function unavailableEngine(kind: 'colour' | 'onnx', reason: string): Engine {
  return {
    info: { name: 'unavailable', label: 'Engine unavailable', kind },
    analyse: () => Promise.reject(new EngineUnavailableError(`The PPD engine could not start: ${reason}`)),
    close: async () => {},
  };
}
