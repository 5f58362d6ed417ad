import type { ChildProcess } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { makeJpeg } from './helpers/fixtures.js';
import { ensureServerBuilt, oneProcessEnv, startServerProcess } from './helpers/server-process.js';

/**
 * Issue 14 with a real process killed by SIGKILL (CASSAVA_CRASH_POINT=delete-before-files) right after a folder
 * deletion committed, before its files went and before the answer: the audit entry committed with the deletion,
 * so it is there. (Written after the commit, as before, it was lost.) In the scale-out pass: PostgreSQL + S3.
 */
const children: ChildProcess[] = [];
let dataDir = '';

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  if (dataDir) await fsp.rm(dataDir, { recursive: true, force: true });
});

describe('SIGKILL right after a deletion committed', () => {
  it('keeps its audit entry', async () => {
    ensureServerBuilt();
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cassava-audit-crash-'));
    const env = await oneProcessEnv(dataDir);

    // A folder with one photo (so the deletion has files to remove after its commit: the crash point).
    const setup = await startServerProcess(env, children);
    const folder = (await (
      await fetch(`${setup.url}/api/folders/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"Plot 7"}',
      })
    ).json()) as { id: number };
    const form = new FormData();
    form.append('folder_id', String(folder.id));
    form.append('files', new Blob([new Uint8Array(await makeJpeg({ seed: 7 }))], { type: 'image/jpeg' }), 'p7.jpg');
    expect((await fetch(`${setup.url}/api/images/upload-files/`, { method: 'POST', body: form })).status).toBe(201);
    setup.child.kill('SIGKILL');
    await setup.exited;

    const crashing = await startServerProcess({ ...env, CASSAVA_CRASH_POINT: 'delete-before-files' }, children);
    await fetch(`${crashing.url}/api/folders/${folder.id}/?images=delete`, { method: 'DELETE' }).catch(() => undefined);
    expect(await crashing.exited).toBe('SIGKILL');

    const db = await openDatabase({ dataDir, databaseUrl: env.DATABASE_URL });
    try {
      expect(await db.kysely.selectFrom('folders').select('id').execute()).toEqual([]);
      const entries = await db.kysely.selectFrom('audit_log').selectAll().execute();
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ username: null, action: 'DELETE /api/folders/:id/' });
      expect(JSON.parse(entries[0]!.target)).toEqual({ id: String(folder.id), images: 'delete' });
    } finally {
      await db.close();
    }
  });
});
