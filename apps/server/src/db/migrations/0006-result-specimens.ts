import { sql, type Kysely } from 'kysely';

/**
 * Every specimen of a result, not three cuts (api.md, Result `specimens`). On `results`:
 * - `specimens`: JSON text, one object per specimen in index order with the engine's values and the stored
 *   keys of its images: `{index, kind, box: [x, y, w, h] | null, ppd, engine_ppd, confidence, needs_review,
 *   excluded, corrected, source, cut_key, pred_key}`; `[]` for a failed image.
 * - `specimen_count`: its length (the export writes it without parsing the JSON).
 * - `needs_review` (0/1): any specimen needs review; `reviewed` (0/1): a reviewer changed something.
 * - `engine_ppd_value`: the engine's own mean, kept whatever a reviewer changes.
 * Rows stored before are rebuilt from what they kept: one specimen per sub-PPD value or stored cut (a
 * `root_slice` without a box or confidence, its cut/pred keys from `vis_keys`), engine values = stored values.
 * Same SQL on SQLite and PostgreSQL.
 */

/** Rows rewritten per statement (2 parameters each: far under SQLite's and PostgreSQL's limits). */
const PAGE = 500;

interface OldRow {
  id: number;
  sub_ppd_values: string;
  vis_keys: string;
}

/** The specimens an old row implies: index i has sub_ppd_values[i-1] and the stored cut2_i / pred_i. */
export function specimensOfOldRow(subPpdJson: string, visKeysJson: string): Record<string, unknown>[] {
  const sub = parseJson<unknown[]>(subPpdJson, []);
  const vis = parseJson<Record<string, unknown>>(visKeysJson, {});
  let n = Array.isArray(sub) ? sub.length : 0;
  for (const key of Object.keys(vis)) {
    const m = /^(?:cut2|pred)_([1-9]\d*)$/.exec(key);
    if (m) n = Math.max(n, Number(m[1]));
  }
  const out: Record<string, unknown>[] = [];
  for (let i = 1; i <= n; i++) {
    const raw = Array.isArray(sub) ? sub[i - 1] : undefined;
    const ppd = typeof raw === 'number' && Number.isFinite(raw) ? raw : null;
    const cut = vis[`cut2_${i}`];
    const pred = vis[`pred_${i}`];
    out.push({
      index: i,
      kind: 'root_slice',
      box: null,
      ppd,
      engine_ppd: ppd,
      confidence: null,
      needs_review: false,
      excluded: false,
      corrected: false,
      source: 'engine',
      cut_key: typeof cut === 'string' ? cut : null,
      pred_key: typeof pred === 'string' ? pred : null,
    });
  }
  return out;
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    return (JSON.parse(text) as T) ?? fallback;
  } catch {
    return fallback;
  }
}

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('results')
    .addColumn('specimens', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('results')
    .addColumn('specimen_count', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('results')
    .addColumn('needs_review', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('results')
    .addColumn('reviewed', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('results').addColumn('engine_ppd_value', 'double precision').execute();
  await sql`update results set engine_ppd_value = ppd_value`.execute(db);

  // Rows with cuts or values get their specimens, a page at a time (failed rows keep '[]').
  let afterId = 0;
  for (;;) {
    const page = await sql<OldRow>`
      select id, sub_ppd_values, vis_keys from results
      where id > ${afterId} and (sub_ppd_values <> '[]' or vis_keys <> '{}')
      order by id limit ${PAGE}`.execute(db);
    if (page.rows.length === 0) break;
    afterId = Number(page.rows[page.rows.length - 1]!.id);
    const values = page.rows.flatMap((r) => {
      const specimens = specimensOfOldRow(r.sub_ppd_values, r.vis_keys);
      return specimens.length > 0
        ? [sql`(cast(${Number(r.id)} as integer), ${JSON.stringify(specimens)}, cast(${specimens.length} as integer))`]
        : [];
    });
    if (values.length > 0) {
      await sql`
        with v (id, s, n) as (values ${sql.join(values)})
        update results
        set specimens = (select v.s from v where v.id = results.id),
            specimen_count = (select v.n from v where v.id = results.id)
        where id in (select v.id from v)`.execute(db);
    }
    if (page.rows.length < PAGE) break;
  }

  // The listing's needs_review filter, within a task and over every result.
  await db.schema.createIndex('results_task_review').on('results').columns(['task_id', 'needs_review', 'id']).execute();
  await db.schema.createIndex('results_review').on('results').columns(['needs_review', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('results_review').execute();
  await db.schema.dropIndex('results_task_review').execute();
  for (const column of ['engine_ppd_value', 'reviewed', 'needs_review', 'specimen_count', 'specimens']) {
    await db.schema.alterTable('results').dropColumn(column).execute();
  }
}
