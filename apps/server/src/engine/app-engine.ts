import type { Engine, EngineOptions } from '@cassavascope/ppd';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config.js';

/** Thrown by the stand-in engine when the real one could not start: tasks then fail as a whole. */
export class EngineUnavailableError extends Error {}

type EngineInfo = Engine['info'];

/**
 * The server's one engine (a worker-thread pool inside @cassavascope/ppd), shared by the queue and
 * predict_single. When it cannot start (a bad MODEL_PATH), the server still serves everything else and
 * each task fails with the reason in its `error_message`.
 */
export async function createAppEngine(config: AppConfig, log: Logger): Promise<Engine> {
  const options: EngineOptions = { modelPath: config.modelPath, workers: config.workers };
  try {
    // Loaded here, not at module load: the engine pulls in the image pipeline (sharp, onnxruntime).
    const { createEngine } = await import('@cassavascope/ppd');
    return await createEngine(options);
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    log.error({ err }, 'the PPD engine could not start');
    return unavailableEngine(config.modelPath ? 'onnx' : 'colour', reason);
  }
}

/** An engine whose worker threads start on `start()` (or on first use), not while the server starts. */
export interface DeferredEngine extends Engine {
  /** starts the real engine (idempotent); resolves once it can take work */
  start(): Promise<void>;
  /** the real engine's info, waiting for it to start (`info` alone would not be known yet) */
  infoWhenReady(): Promise<EngineInfo>;
}

/**
 * The server process starts its engine right after it listens: importing the image pipeline and
 * starting the worker threads would otherwise compete for the CPU with the start-up itself.
 */
export function deferredAppEngine(config: AppConfig, log: Logger): DeferredEngine {
  let real: Engine | null = null;
  let starting: Promise<Engine> | null = null;
  const start = () => (starting ??= createAppEngine(config, log).then((e) => (real = e)));
  return {
    get info(): EngineInfo {
      if (!real) throw new Error('the engine has not started yet: use infoWhenReady()');
      return real.info;
    },
    infoWhenReady: async () => (await start()).info,
    analyse: async (...args) => (await start()).analyse(...args),
    close: async () => {
      if (starting) await (await starting).close();
    },
    start: async () => {
      await start();
    },
  };
}

/** The engine's info, once it is known (a deferred engine may still be starting). */
export async function engineInfo(engine: Engine): Promise<EngineInfo> {
  return 'infoWhenReady' in engine ? (engine as DeferredEngine).infoWhenReady() : engine.info;
}

function unavailableEngine(kind: 'colour' | 'onnx', reason: string): Engine {
  return {
    info: { name: 'unavailable', label: 'Engine unavailable', kind },
    analyse: () => Promise.reject(new EngineUnavailableError(`The PPD engine could not start: ${reason}`)),
    close: async () => {},
  };
}
