import { randomUUID } from 'node:crypto';
import type { LabelledPhoto, TrainedLabModel } from '@cassavascope/ppd';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { trainLabModel } from './lab-model-engine.js';
import { modelFileKey, modelFilesPrefix, overlayKey } from './model-keys.js';
import { ModelsRepository, type StoredHeldout } from './models.repository.js';
import { loadLabelledPhotos } from './training-photos.js';

export interface TrainingDeps {
  db: Db;
  storage: BlobStorage;
  log: Logger;
}

/** `done`: nothing left to do; `interrupted`: stopped by the signal (shutdown) while the model still trains. */
export type TrainingOutcome = 'done' | 'interrupted';

/** Progress is written at most this often (and the status read, so a cancel made elsewhere stops this one). */
const CHECK_MS = 1000;

/**
 * Runs one model's training: reads its labelled photos, trains with the engine, stores the portable file and
 * the held-out overlays, and marks the model ready. Safe to run again after a crash (file keys are the model's
 * own and overwritten). A cancel (the model's status leaves `training`, here or in another process) stops it;
 * a shutdown (`signal`) leaves it `training` for the next start.
 */
export async function runTraining(deps: TrainingDeps, modelId: number, signal?: AbortSignal): Promise<TrainingOutcome> {
  const repo = new ModelsRepository(deps.db.kysely);
  const row = await repo.get(modelId);
  if (!row || row.status !== 'training') return 'done';

  // A shutdown may come while the photos are read: the engine then refuses at once (an aborted signal).
  const controller = new AbortController();
  const onShutdown = () => controller.abort();
  if (signal?.aborted) controller.abort();
  signal?.addEventListener('abort', onShutdown);
  const imageIds = JSON.parse(row.image_ids) as number[];
  let photos: LabelledPhoto[];
  try {
    photos = await loadLabelledPhotos(deps, imageIds);
  } catch (err) {
    signal?.removeEventListener('abort', onShutdown);
    throw err;
  }
  if (photos.length < 2) {
    signal?.removeEventListener('abort', onShutdown);
    await repo.stopTraining(modelId, 'failed', 'Fewer than 2 of its labelled photos are left (deleted or unlabelled)');
    return 'done';
  }

  let cancelled = false;
  let lastCheck = 0;
  let checking = false;
  const onProgress = (percent: number) => {
    const now = Date.now();
    if (checking || now - lastCheck < CHECK_MS) return;
    lastCheck = now;
    checking = true;
    // Never 100 before the files are stored: ready says that.
    const progress = Math.max(0, Math.min(99, Math.round(percent * 10) / 10));
    void repo
      .status(modelId)
      .then(async (status) => {
        if (status !== 'training') {
          cancelled = true;
          controller.abort();
        } else await repo.setProgress(modelId, progress);
      })
      .catch((err: unknown) => deps.log.warn({ err, modelId }, 'training progress could not be written'))
      .finally(() => (checking = false));
  };

  let trained: TrainedLabModel;
  try {
    trained = await trainLabModel(photos, { name: row.name, onProgress, signal: controller.signal });
  } catch (err) {
    // A training the photos cannot make (too few labels, an unreadable photo) fails at once: a retry would too.
    if (isTrainingError(err)) {
      await repo.stopTraining(modelId, 'failed', err.message);
      return 'done';
    }
    if (!controller.signal.aborted) throw err;
    if (cancelled || (await repo.status(modelId)) !== 'training') return 'done';
    return 'interrupted';
  } finally {
    signal?.removeEventListener('abort', onShutdown);
  }
  if ((await repo.status(modelId)) !== 'training') return 'done';

  const stored = await storeTrained(deps.storage, modelId, trained);
  const finished = await repo.finishTraining(modelId, {
    fileKey: stored.fileKey,
    fileSize: trained.file.byteLength,
    imageCount: trained.image_count,
    labelledPixels: { ...trained.labelled_pixels },
    metrics: trained.metrics ? { ...trained.metrics } : null,
    heldout: stored.heldout,
  });
  // Cancelled or deleted while the files were written: nothing names them.
  if (!finished) await deleteModelFiles(deps.storage, modelId);
  return 'done';
}

/** The engine's TrainingError with a code a retry cannot change (learned/train-core.ts). */
function isTrainingError(err: unknown): err is Error {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof Error && err.name === 'TrainingError' && code !== 'training_failed';
}

/** The file and the held-out overlays under the model's own prefix (overwritten by a retry). */
async function storeTrained(
  storage: BlobStorage,
  modelId: number,
  t: TrainedLabModel,
): Promise<{ fileKey: string; heldout: StoredHeldout[] }> {
  const fileKey = modelFileKey(modelId, randomUUID());
  await storage.putBuffer(fileKey, t.file, 'application/octet-stream');
  const heldout: StoredHeldout[] = [];
  for (const h of t.heldout) {
    const imageId = Number(h.id);
    const modelKey = overlayKey(modelId, imageId, 'model');
    const baselineKey = overlayKey(modelId, imageId, 'baseline');
    await storage.putBuffer(modelKey, h.model_overlay, 'image/webp');
    await storage.putBuffer(baselineKey, h.baseline_overlay, 'image/webp');
    heldout.push({
      image_id: imageId,
      labels_ppd: h.labels_ppd,
      model_ppd: h.model_ppd,
      baseline_ppd: h.baseline_ppd,
      model_overlay_key: modelKey,
      baseline_overlay_key: baselineKey,
    });
  }
  return { fileKey, heldout };
}

/** Removes every stored file of a model (its file and overlays). */
export async function deleteModelFiles(storage: BlobStorage, modelId: number): Promise<void> {
  const keys: string[] = [];
  for await (const key of storage.list(modelFilesPrefix(modelId))) keys.push(key);
  if (keys.length > 0) await storage.delete(keys);
}
