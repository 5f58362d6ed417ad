import type { Kysely } from 'kysely';

/**
 * Labels (issue 23, api.md "Labels and lab models"): at most one label image per image, a PNG at the photo's size
 * as shown, in blob storage under `labels/<image id>/<random>.png` (a new key per version, so a replacement never
 * overwrites bytes a committed row still names). The counts per class are kept with the row (the answer of
 * PUT and what training checks without decoding every PNG). The row goes with its image (foreign key); the
 * services deleting images take the blob keys first and delete them after commit. `user_id`/`username` as the
 * audit log keeps them: the name stays when the account is removed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('image_labels')
    .addColumn('image_id', 'integer', (c) => c.primaryKey().references('images.id').onDelete('cascade'))
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('width', 'integer', (c) => c.notNull())
    .addColumn('height', 'integer', (c) => c.notNull())
    .addColumn('background', 'integer', (c) => c.notNull())
    .addColumn('healthy', 'integer', (c) => c.notNull())
    .addColumn('lesion', 'integer', (c) => c.notNull())
    .addColumn('excluded', 'integer', (c) => c.notNull())
    .addColumn('user_id', 'integer')
    .addColumn('username', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('image_labels').execute();
}
