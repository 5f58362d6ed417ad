import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import crypto from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { AppConfig } from '../config/config.js';
import { openDatabase, type Db } from '../db/database.js';
import type { Database } from '../db/schema.js';
import { contentTypeForKey, type BlobStorage } from '../storage/blob-storage.js';
import { LocalStorage } from '../storage/local-storage.js';
import { createStorage } from '../storage/create-storage.js';

/** Rows per INSERT: well under PostgreSQL's 65 535 bind parameters for our widest table. */
const ROWS_PER_INSERT = 500;

export interface MigrationReport {
  tables: Record<string, number>;
  blobs: number;
}

/**
 * Copies an embedded installation (SQLite in `sourceDataDir` + its local blobs) into the scale-out
 * parts the target config names (PostgreSQL, and S3 when configured). Both databases are first brought
 * to the latest schema, so the copy is column for column; ids are kept (every URL and reference stays
 * valid) and PostgreSQL's identity sequences are moved past them. Refuses a target that already holds
 * data. The rows are copied in one transaction (all or nothing), then the blobs; blobs already in the
 * target are skipped, so after a failed blob copy, re-run with `resumeBlobs` to copy only the rest.
 */
export async function migrateSqliteToPostgres(options: {
  sourceDataDir: string;
  target: AppConfig;
  log?: (line: string) => void;
  /** skip the rows (already copied by an earlier run) and copy only missing blobs */
  resumeBlobs?: boolean;
}): Promise<MigrationReport> {
  const log = options.log ?? (() => {});
  const { target } = options;
  if (!target.databaseUrl) throw new Error('DATABASE_URL (the target PostgreSQL database) is not set');
  if (!fs.existsSync(path.join(options.sourceDataDir, 'cassavascope.db'))) {
    throw new Error(`no embedded database at ${path.join(options.sourceDataDir, 'cassavascope.db')}`);
  }
  const source = await openDatabase({ dataDir: options.sourceDataDir });
  let dest: Db | undefined;
  let destStorage: BlobStorage | undefined;
  try {
    dest = await openDatabase({ dataDir: target.dataDir, databaseUrl: target.databaseUrl });
    destStorage = await createStorage(target);
    const tables = await tablesToCopy(source.kysely, dest.kysely);
    const report: MigrationReport = { tables: {}, blobs: 0 };
    if (!options.resumeBlobs) {
      for (const table of tables) {
        const n = await countRows(dest.kysely, table);
        if (n > 0) throw new Error(`the target database is not empty (table ${table} has ${n} rows)`);
      }
      await dest.kysely.transaction().execute(async (trx) => {
        for (const table of tables) {
          report.tables[table] = await copyTable(source.kysely, trx, table);
          log(`${table}: ${report.tables[table]} rows`);
        }
        for (const table of tables) await moveIdentityPast(trx, table, await sqliteSequence(source.kysely, table));
        // Jobs the stopped embedded server was running are queued again: the new workers take them over.
        if (tables.includes('task_jobs')) {
          await trx.updateTable('task_jobs').set({ status: 'queued' }).where('status', '=', 'running').execute();
        }
      });
    }
    report.blobs = await copyBlobs(new LocalStorage(options.sourceDataDir), destStorage, log);
    log(`blobs: ${report.blobs} copied`);
    return report;
  } finally {
    await source.close();
    await dest?.close();
    (destStorage as { close?: () => void } | undefined)?.close?.();
  }
}

/** Tables the target's triggers fill as the rows they count arrive (migration 0004): never copied. */
const DERIVED_TABLES = new Set(['image_counts']);

/**
 * The tables both databases have (not Kysely's bookkeeping, not SQLite-only search indexes such as the FTS
 * tables, not derived tables), parents before children: SQLite's creation order honours the foreign keys.
 */
async function tablesToCopy(sqlite: Kysely<Database>, postgres: Kysely<Database>): Promise<string[]> {
  const inPostgres = new Set(
    (
      await sql<{ name: string }>`
        select table_name as name from information_schema.tables
        where table_schema = current_schema() and table_type = 'BASE TABLE'`.execute(postgres)
    ).rows.map((r) => r.name),
  );
  const rows = await sql<{ name: string }>`
    select name from sqlite_master
    where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'
    order by rowid`.execute(sqlite);
  return rows.rows.map((r) => r.name).filter((name) => inPostgres.has(name) && !DERIVED_TABLES.has(name));
}

/** The columns of a PostgreSQL table (a dialect-only column on the SQLite side is not copied). */
async function postgresColumns(db: Kysely<Database>, table: string): Promise<string[]> {
  const rows = await sql<{ name: string }>`
    select column_name as name from information_schema.columns
    where table_schema = current_schema() and table_name = ${table}`.execute(db);
  return rows.rows.map((r) => r.name);
}

async function countRows(db: Kysely<Database>, table: string): Promise<number> {
  const r = await sql<{ n: number }>`select count(*) as n from ${sql.table(table)}`.execute(db);
  return Number(r.rows[0]?.n ?? 0);
}

async function copyTable(from: Kysely<Database>, to: Kysely<Database>, table: string): Promise<number> {
  const columns = await postgresColumns(to, table);
  const key = await withoutRowidKey(from, table);
  let copied = 0;
  let last: unknown[] | undefined;
  // Paged by rowid (or, for a WITHOUT ROWID table, its primary key) so memory stays flat for 100 000s of rows.
  for (;;) {
    const page = key
      ? await keyPage(from, table, key, last)
      : await rowidPage(from, table, last?.[0] as number | undefined);
    if (page.length === 0) return copied;
    const lastRow = page[page.length - 1]!;
    last = key ? key.map((k) => lastRow[k]) : [Number(lastRow.__rowid)];
    const rows = page.map((row) => Object.fromEntries(columns.filter((c) => c in row).map((c) => [c, row[c]])));
    await (to as Kysely<any>).insertInto(table).values(rows).execute();
    copied += rows.length;
  }
}

async function rowidPage(db: Kysely<Database>, table: string, after: number | undefined) {
  const r = await sql<Record<string, unknown>>`
    select rowid as "__rowid", * from ${sql.table(table)} where rowid > ${after ?? -1}
    order by rowid limit ${ROWS_PER_INSERT}`.execute(db);
  return r.rows;
}

/** A page of a WITHOUT ROWID table after the row whose primary key is `after`, in key order (row values). */
async function keyPage(db: Kysely<Database>, table: string, key: string[], after: unknown[] | undefined) {
  const columns = sql.join(key.map((k) => sql.ref(k)));
  const where = after ? sql`where (${columns}) > (${sql.join(after.map((v) => sql`${v}`))})` : sql``;
  const r = await sql<Record<string, unknown>>`
    select * from ${sql.table(table)} ${where} order by ${columns} limit ${ROWS_PER_INSERT}`.execute(db);
  return r.rows;
}

/** The primary key columns of a WITHOUT ROWID table (undefined for an ordinary table). */
async function withoutRowidKey(db: Kysely<Database>, table: string): Promise<string[] | undefined> {
  const def = await sql<{
    sql: string;
  }>`select sql from sqlite_master where type = 'table' and name = ${table}`.execute(db);
  if (!/without\s+rowid\s*$/i.test(def.rows[0]?.sql ?? '')) return undefined;
  const info = await sql<{ name: string; pk: number }>`select name, pk from pragma_table_info(${table})`.execute(db);
  return info.rows
    .filter((c) => c.pk > 0)
    .sort((a, b) => a.pk - b.pk)
    .map((c) => c.name);
}

/** SQLite's AUTOINCREMENT high-water mark: ids of deleted rows are never handed out again. */
async function sqliteSequence(db: Kysely<Database>, table: string): Promise<number> {
  const r = await sql<{ seq: number }>`select seq from sqlite_sequence where name = ${table}`.execute(db);
  return Number(r.rows[0]?.seq ?? 0);
}

/** Kept ids would collide with the identity sequence's next values: continue where SQLite would. */
async function moveIdentityPast(db: Kysely<Database>, table: string, highWater: number): Promise<void> {
  const hasId = await sql<{ n: number }>`
    select count(*) as n from information_schema.columns
    where table_schema = current_schema() and table_name = ${table} and column_name = 'id' and is_identity = 'YES'`.execute(
    db,
  );
  if (Number(hasId.rows[0]?.n) === 0) return;
  await sql`select setval(pg_get_serial_sequence(${table}, 'id'),
    greatest(${highWater}, coalesce((select max(id) from ${sql.table(table)}), 0)) + 1, false)`.execute(db);
}

async function copyBlobs(from: LocalStorage, to: BlobStorage, log: (line: string) => void): Promise<number> {
  let copied = 0;
  for await (const key of from.list('')) {
    if (await to.exists(key)) continue;
    const obj = await from.get(key);
    if (!obj) continue;
    // putFile consumes a temp file: stream the original into one (never the whole file in memory).
    const temp = path.join(to.tempDir, `${crypto.randomUUID()}.part`);
    await fsp.mkdir(to.tempDir, { recursive: true });
    await fsp.writeFile(temp, obj.stream);
    await to.putFile(key, temp, contentTypeForKey(key));
    copied++;
    if (copied % 1000 === 0) log(`blobs: ${copied} copied so far`);
  }
  return copied;
}
