import { readLabelPng, type LabelledPhoto } from '@cassavascope/ppd';
import type { Logger } from 'pino';
import type { Db } from '../db/database.js';
import { ImagesRepository } from '../images/images.repository.js';
import type { BlobStorage } from '../storage/blob-storage.js';
import { LabelledImagesRepository } from './labelled-images.repository.js';

/**
 * The photos a training reads: each image's original and its labels (decoded). An image deleted, unlabelled or
 * unreadable since the model was asked for is left out (logged), not a failure of the training.
 */
export async function loadLabelledPhotos(
  deps: { db: Db; storage: BlobStorage; log: Logger },
  imageIds: number[],
): Promise<LabelledPhoto[]> {
  if (imageIds.length === 0) return [];
  const labels = await new LabelledImagesRepository(deps.db.kysely).labelled(imageIds, null);
  const images = new Map(
    (await new ImagesRepository(deps.db.kysely, deps.db.dialect).getByIds(imageIds)).map((i) => [i.id, i]),
  );
  const photos: LabelledPhoto[] = [];
  for (const l of labels) {
    const image = images.get(l.image_id);
    const [bytes, labelBytes] = image
      ? await Promise.all([deps.storage.getBuffer(image.blob_key), deps.storage.getBuffer(l.blob_key)])
      : [null, null];
    const decoded = labelBytes ? await readLabelPng(labelBytes) : null;
    if (!image || !bytes || !decoded?.ok) {
      deps.log.warn({ imageId: l.image_id }, 'a labelled photo could not be read for training: left out');
      continue;
    }
    photos.push({ id: String(l.image_id), name: image.name, image: bytes, labels: decoded.labels });
  }
  return photos;
}
