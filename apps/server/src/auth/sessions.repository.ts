import type { Kysely } from 'kysely';
import type { Role } from '@cassavascope/contract';
import type { Database } from '../db/schema.js';

type Db = Kysely<Database>;

/** The user a live session belongs to. */
export interface SessionUser {
  id: number;
  username: string;
  role: Role;
}

/** Every SQL query about sessions (the `sessions` table's one owner). Tokens arrive already hashed. */
export class SessionsRepository {
  constructor(private readonly db: Db) {}

  async insert(tokenHash: string, userId: number, expiresAt: Date): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({
        token_hash: tokenHash,
        user_id: userId,
        created_at: new Date().toISOString(),
        expires_at: expiresAt.toISOString(),
      })
      .execute();
  }

  /** The session's user, or undefined when there is no such session or it has expired. */
  async findUser(tokenHash: string, now: Date): Promise<SessionUser | undefined> {
    const row = await this.db
      .selectFrom('sessions')
      .innerJoin('users', 'users.id', 'sessions.user_id')
      .select(['users.id as id', 'users.username as username', 'users.role as role'])
      .where('sessions.token_hash', '=', tokenHash)
      .where('sessions.expires_at', '>', now.toISOString())
      .executeTakeFirst();
    return row && { id: row.id, username: row.username, role: row.role as Role };
  }

  async delete(tokenHash: string): Promise<void> {
    await this.db.deleteFrom('sessions').where('token_hash', '=', tokenHash).execute();
  }

  /** Ends every session of a user (their password was reset): the caller's transaction. */
  async deleteOfUser(userId: number, db: Db = this.db): Promise<void> {
    await db.deleteFrom('sessions').where('user_id', '=', userId).execute();
  }

  async deleteExpired(now: Date): Promise<void> {
    await this.db.deleteFrom('sessions').where('expires_at', '<=', now.toISOString()).execute();
  }
}
