import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { AuditEntry } from '../http/deletion-audit.js';

/** The `audit_log` table's one owner: who deleted what. */
export class AuditRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** `db`: the deletion's transaction, so the entry commits with it. */
  async record(entry: AuditEntry, db: Kysely<Database> = this.db): Promise<void> {
    await db
      .insertInto('audit_log')
      .values({
        user_id: entry.userId,
        username: entry.username,
        action: entry.action,
        target: entry.target,
        created_at: new Date().toISOString(),
      })
      .execute();
  }

  async latest(limit: number) {
    return this.db.selectFrom('audit_log').selectAll().orderBy('id', 'desc').limit(limit).execute();
  }
}
