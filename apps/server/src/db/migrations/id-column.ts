import { PostgresAdapter, sql, type CreateTableBuilder, type Kysely } from 'kysely';

/**
 * The one real dialect difference in our schema: an auto-increment integer primary key.
 * SQLite wants INTEGER PRIMARY KEY AUTOINCREMENT, PostgreSQL an identity column.
 */
export async function isPostgres(db: Kysely<unknown>): Promise<boolean> {
  const adapter = db.getExecutor().adapter;
  return adapter instanceof PostgresAdapter;
}

export function withIdColumn<T extends string>(
  builder: CreateTableBuilder<T, never>,
  postgres: boolean,
): CreateTableBuilder<T, 'id'> {
  return postgres
    ? builder.addColumn('id', 'integer', (c) => c.primaryKey().generatedByDefaultAsIdentity())
    : builder.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}

export { sql };
