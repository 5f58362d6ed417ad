import SQLite from 'better-sqlite3';

/** One read of the SQLite reader pool: a compiled SELECT and its parameters, on the database file named. */
export interface SqliteRead {
  file: string;
  sql: string;
  parameters: readonly unknown[];
}

// One connection per database file, kept for the thread's life: opening one and warming its cache costs more
// than most reads.
const connections = new Map<string, SQLite.Database>();

function connection(file: string): SQLite.Database {
  let db = connections.get(file);
  if (!db) {
    db = new SQLite(file, { fileMustExist: true });
    db.pragma('busy_timeout = 5000');
    db.pragma('cache_size = -32768');
    // This connection only ever reads; SQLite refuses anything else on it.
    db.pragma('query_only = 1');
    connections.set(file, db);
  }
  return db;
}

/** Piscina's task function: runs the SELECT and answers its rows. */
export default function read(task: SqliteRead): unknown[] {
  return connection(task.file)
    .prepare(task.sql)
    .all(...task.parameters);
}
