/**
 * A row referred to a parent that another request deleted meanwhile (SQLite's and PostgreSQL's codes):
 * for the caller an unknown id, not a server fault.
 */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = typeof err === 'object' && err !== null ? (err as { code?: unknown }).code : undefined;
  return code === 'SQLITE_CONSTRAINT_FOREIGNKEY' || code === '23503';
}

/** Unique-constraint violations from either database (e.g. a concurrent create with the same name). */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string } | null;
  return e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === '23505';
}
