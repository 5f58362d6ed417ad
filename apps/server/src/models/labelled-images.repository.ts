import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;

export interface LabelledImage {
  image_id: number;
  blob_key: string;
  background: number;
  healthy: number;
  lesion: number;
  excluded: number;
}

/**
 * What training reads of the labels (owned by labels/, migration 0016): which images have labels, their counts
 * and their label PNG's key. Read only.
 */
export class LabelledImagesRepository {
  constructor(private readonly db: Db) {}

  /** The labelled images among `imageIds` and the images of `folderIds`; both null: every labelled image. */
  async labelled(imageIds: number[] | null, folderIds: number[] | null): Promise<LabelledImage[]> {
    let q = this.db
      .selectFrom('image_labels as l')
      .innerJoin('images as i', 'i.id', 'l.image_id')
      .select(['l.image_id', 'l.blob_key', 'l.background', 'l.healthy', 'l.lesion', 'l.excluded']);
    if (imageIds !== null || folderIds !== null) {
      const ids = imageIds ?? [];
      const folders = folderIds ?? [];
      q = q.where((eb) =>
        eb.or([
          ...(ids.length > 0 ? [eb('l.image_id', 'in', ids)] : []),
          ...(folders.length > 0 ? [eb('i.folder_id', 'in', folders)] : []),
          ...(ids.length === 0 && folders.length === 0 ? [eb.val(false)] : []),
        ]),
      );
    }
    return q.orderBy('l.image_id').execute();
  }
}
