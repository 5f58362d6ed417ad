import type { Kysely, Selectable } from 'kysely';
import type { Database, PendingUploadsTable } from '../db/schema.js';

export type PendingUploadRow = Selectable<PendingUploadsTable>;

/**
 * The only SQL on `pending_uploads` (migration 0012). Every take is a DELETE ... RETURNING, so a token is used
 * once even when two API processes get it at the same moment.
 */
export class PendingUploadsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(row: PendingUploadRow): Promise<void> {
    await this.db.insertInto('pending_uploads').values(row).execute();
  }

  /** Removes and returns the upload of `token` when it has not expired at `now` (ISO). */
  async take(token: string, now: string): Promise<PendingUploadRow | undefined> {
    return this.db
      .deleteFrom('pending_uploads')
      .where('token', '=', token)
      .where('expires_at', '>', now)
      .returningAll()
      .executeTakeFirst();
  }

  /** Removes one upload whatever its age (its files could not be kept). */
  async remove(token: string): Promise<void> {
    await this.db.deleteFrom('pending_uploads').where('token', '=', token).execute();
  }

  /** Removes the uploads expired at `now` (ISO); returns their tokens. */
  async takeExpired(now: string): Promise<string[]> {
    const rows = await this.db
      .deleteFrom('pending_uploads')
      .where('expires_at', '<=', now)
      .returning('token')
      .execute();
    return rows.map((r) => r.token);
  }

  /** Removes every upload but the newest `keep`; returns their tokens. */
  async takeAllButNewest(keep: number): Promise<string[]> {
    const all = await this.db
      .selectFrom('pending_uploads')
      .select('token')
      .orderBy('created_at', 'desc')
      .orderBy('token')
      .execute();
    const old = all.slice(keep).map((r) => r.token);
    if (old.length === 0) return [];
    const rows = await this.db.deleteFrom('pending_uploads').where('token', 'in', old).returning('token').execute();
    return rows.map((r) => r.token);
  }

  /** Of `tokens`, those that still have a row. */
  async existing(tokens: string[]): Promise<Set<string>> {
    if (tokens.length === 0) return new Set();
    const rows = await this.db.selectFrom('pending_uploads').select('token').where('token', 'in', tokens).execute();
    return new Set(rows.map((r) => r.token));
  }
}
