import type { LabelledPhoto, TrainedLabModel, TrainOptions } from '@cassavascope/ppd';

/**
 * The engine's lab-model calls (packages/ppd learned/lab-model-api.ts), loaded on first use: importing the
 * engine pulls in the image pipeline, which the server does not load at start (engine/app-engine.ts).
 */
interface LabModelCalls {
  trainLabModel(photos: LabelledPhoto[], options: TrainOptions): Promise<TrainedLabModel>;
  /** throws on bytes that are not a lab model file */
  readLabModelFile(bytes: Uint8Array): unknown;
}

async function calls(): Promise<LabModelCalls> {
  const ppd = (await import('@cassavascope/ppd')) as unknown as Partial<LabModelCalls>;
  if (typeof ppd.trainLabModel !== 'function' || typeof ppd.readLabModelFile !== 'function')
    throw new Error('this build of the engine cannot train lab models');
  return ppd as LabModelCalls;
}

export async function trainLabModel(photos: LabelledPhoto[], options: TrainOptions): Promise<TrainedLabModel> {
  return (await calls()).trainLabModel(photos, options);
}

/** What the engine reads of a model file (its own description); rejects when the bytes are not a lab model file. */
export async function readLabModelFile(bytes: Uint8Array): Promise<unknown> {
  const api = await calls();
  return api.readLabModelFile(bytes);
}
