import type { AnalyseOptions } from '@cassavascope/ppd';
import type { Db } from '../db/database.js';
import { ApiError } from '../http/errors.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { ModelsRepository } from './models.repository.js';

/** Model files kept in memory per process (each well under 5 MB; a task reads its model once, not per image). */
const CACHE_MAX = 8;
const cache = new Map<string, Uint8Array>();

/**
 * The engine's `labModel` option for a model: its id and file bytes, cached by storage key (a model's file never
 * changes once it is ready). Null when the model or its file is gone.
 */
export async function labModelOption(
  deps: { db: Db; storage: BlobStorage },
  modelId: number,
): Promise<NonNullable<AnalyseOptions['labModel']> | null> {
  const row = await new ModelsRepository(deps.db.kysely).get(modelId);
  if (!row || row.status !== 'ready' || !row.file_key) return null;
  const key = row.file_key;
  let file = cache.get(key);
  if (!file) {
    const bytes = await deps.storage.getBuffer(key);
    if (!bytes) return null;
    file = new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (cache.size >= CACHE_MAX) cache.delete(cache.keys().next().value as string);
    cache.set(key, file);
  }
  return { id: key, file };
}

/**
 * The lab model a request names: null for none; an unknown model or one that is not ready is a 400 naming
 * `model_id` (`what` names the request in the detail, as parseInput does).
 */
export async function readyModel(
  db: Db,
  id: number | null | undefined,
  what: string,
): Promise<{ id: number; name: string } | null> {
  if (id === null || id === undefined) return null;
  const model = await new ModelsRepository(db.kysely).get(id);
  if (model?.status === 'ready') return { id: model.id, name: model.name };
  const why = model ? `lab model ${id} is ${model.status}, not ready` : `unknown lab model id: ${id}`;
  throw new ApiError(400, 'invalid', `Invalid ${what}: model_id: ${why}`, { fields: { model_id: why } });
}
