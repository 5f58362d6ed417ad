import type { Kysely, Selectable } from 'kysely';
import type { Role } from '@cassavascope/contract';
import type { Database, UsersTable } from '../db/schema.js';

export type UserRecord = Selectable<UsersTable>;
type Db = Kysely<Database>;

/** The key that makes user names unique: NFC, lower case ("Ana" and "ana" are one account). */
export function usernameKey(name: string): string {
  return name.normalize('NFC').trim().toLowerCase();
}

/** Every SQL query about users (the `users` table's one owner). */
export class UsersRepository {
  constructor(private readonly db: Db) {}

  async count(db: Db = this.db): Promise<number> {
    const row = await db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async listPage(limit: number, offset: number): Promise<UserRecord[]> {
    return this.db
      .selectFrom('users')
      .selectAll()
      .orderBy('username_key')
      .orderBy('id')
      .limit(limit)
      .offset(offset)
      .execute();
  }

  async getById(id: number, db: Db = this.db): Promise<UserRecord | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async getByName(name: string): Promise<UserRecord | undefined> {
    return this.db.selectFrom('users').selectAll().where('username_key', '=', usernameKey(name)).executeTakeFirst();
  }

  /** Names of these users (ids of removed users are missing from the map). */
  async namesOf(ids: number[]): Promise<Map<number, string>> {
    if (ids.length === 0) return new Map();
    const rows = await this.db.selectFrom('users').select(['id', 'username']).where('id', 'in', ids).execute();
    return new Map(rows.map((r) => [r.id, r.username]));
  }

  /**
   * Ids of every admin. On PostgreSQL the rows are locked until the transaction ends, so two requests that
   * each demote or remove one of the last two admins run one after the other and the second sees one left.
   */
  async lockAdmins(db: Db, postgres: boolean): Promise<number[]> {
    let q = db.selectFrom('users').select('id').where('role', '=', 'admin');
    if (postgres) q = q.forUpdate();
    return (await q.execute()).map((r) => r.id);
  }

  async insert(username: string, role: Role, passwordHash: string, db: Db = this.db): Promise<number> {
    const name = username.normalize('NFC').trim();
    const row = await db
      .insertInto('users')
      .values({
        username: name,
        username_key: usernameKey(name),
        role,
        password_hash: passwordHash,
        created_at: new Date().toISOString(),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    return row.id;
  }

  async update(id: number, changes: { role?: Role; password_hash?: string }, db: Db = this.db): Promise<void> {
    await db.updateTable('users').set(changes).where('id', '=', id).execute();
  }

  async delete(id: number, db: Db = this.db): Promise<void> {
    await db.deleteFrom('users').where('id', '=', id).execute();
  }
}
