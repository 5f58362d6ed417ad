import type { Kysely } from 'kysely';

/**
 * Names are stored in Unicode NFC (issue 13): rows written before that rule may hold another spelling (macOS
 * sends file names in NFD), which made "café.jpg" in NFC and in NFD two names for duplicates and search. This
 * rewrites every such name, with the lower-cased columns derived from it (`name_lower`, `image_name_lower`,
 * the folder's `name_key` and its images' `folder_sort`). A folder whose NFC name would take another folder's
 * name (folder names are unique) gets its id appended. Only rows whose spelling changes are written.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const changed = (name: string) => name.normalize('NFC') !== name;

  for (const row of (await db.selectFrom('images').select(['id', 'name']).execute()) as {
    id: number;
    name: string;
  }[]) {
    if (!changed(row.name)) continue;
    const name = row.name.normalize('NFC');
    await db.updateTable('images').set({ name, name_lower: name.toLowerCase() }).where('id', '=', row.id).execute();
  }

  for (const row of (await db.selectFrom('tasks').select(['id', 'name']).execute()) as { id: number; name: string }[]) {
    if (!changed(row.name)) continue;
    const name = row.name.normalize('NFC');
    await db.updateTable('tasks').set({ name, name_lower: name.toLowerCase() }).where('id', '=', row.id).execute();
  }

  for (const row of (await db.selectFrom('results').select(['id', 'image_name']).execute()) as {
    id: number;
    image_name: string;
  }[]) {
    if (!changed(row.image_name)) continue;
    const name = row.image_name.normalize('NFC');
    await db
      .updateTable('results')
      .set({ image_name: name, image_name_lower: name.toLowerCase() })
      .where('id', '=', row.id)
      .execute();
  }

  const folders = (await db.selectFrom('folders').select(['id', 'name', 'name_key']).execute()) as {
    id: number;
    name: string;
    name_key: string;
  }[];
  const keys = new Set(folders.map((f) => f.name_key));
  for (const folder of folders) {
    if (!changed(folder.name)) continue;
    let name = folder.name.normalize('NFC');
    let key = name.trim().toLowerCase();
    if (keys.has(key) && key !== folder.name_key) {
      name = `${name} (${folder.id})`;
      key = name.trim().toLowerCase();
    }
    keys.delete(folder.name_key);
    keys.add(key);
    await db.updateTable('folders').set({ name, name_key: key }).where('id', '=', folder.id).execute();
    await db.updateTable('images').set({ folder_sort: key }).where('folder_id', '=', folder.id).execute();
  }
}

/** Nothing to undo: NFC names are valid names in any earlier version. */
export async function down(): Promise<void> {}
