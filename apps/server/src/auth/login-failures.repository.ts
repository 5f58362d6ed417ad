import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Every SQL query about failed sign-ins (the `login_failures` table's one owner). */
export class LoginFailuresRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** How many failures a subject has had since `since`, and when the latest was. */
  async since(subject: string, since: string): Promise<{ count: number; latest: string | null }> {
    const row = await this.db
      .selectFrom('login_failures')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.max('created_at').as('latest')])
      .where('subject', '=', subject)
      .where('created_at', '>', since)
      .executeTakeFirstOrThrow();
    return { count: Number(row.n), latest: row.latest ?? null };
  }

  async insert(subjects: string[], at: string): Promise<void> {
    await this.db
      .insertInto('login_failures')
      .values(subjects.map((subject) => ({ subject, created_at: at })))
      .execute();
  }

  async deleteOlderThan(at: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('created_at', '<=', at).execute();
  }

  async deleteOf(subject: string): Promise<void> {
    await this.db.deleteFrom('login_failures').where('subject', '=', subject).execute();
  }
}
