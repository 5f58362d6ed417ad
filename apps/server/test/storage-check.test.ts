import { spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../src/db/database.js';
import { StorageChecksRepository } from '../src/storage-check/storage-checks.repository.js';
import { scaleOutEnvForTest } from './helpers/scale-out-env.js';
import { specimenFiles, uploadFiles } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';
import { entryArgs } from '../src/util/entry-args.js';

/**
 * Issue 26, point 6: stored bytes were never checked (a bit-flipped original was served with 200 and its old
 * sha256 ETag, and /status/ said nothing). A flipped byte in an original, a removed original (a file on the
 * embedded default, an object in the scale-out pass), a removed thumbnail and files no row names are reported
 * by `npm run check-storage` (text, --json, exit status) and by the server's scheduled check on /status/.
 */
const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const servers: TestServer[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
});

function checkStorage(env: Record<string, string>, args: string[] = []) {
  return spawnSync(process.execPath, [...entryArgs('src/cli/check-storage-command.ts'), ...args], {
    cwd: SERVER,
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 120_000,
  });
}

/** The stored key of a media URL the API gave (`/media/<key>`). */
const keyOf = (url: string) => url.replace(/^\/media\//, '');

it('reports a corrupt and a missing original, a missing thumbnail and untracked files: the command and the schedule', async () => {
  const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cassava-check-'));
  dirs.push(dataDir);
  // One database and storage for the command and the server (PostgreSQL + S3 in the scale-out pass).
  const env: Record<string, string> = {
    DATA_DIR: dataDir,
    ...(await scaleOutEnvForTest()),
    WORKER_PROCESSES: '0',
    STORAGE_CHECK_GRACE_MINUTES: '0',
  };
  delete env.API_WORKS_JOBS;
  // Checks every ~4 s (the schedule's own tick), so the test sees a scheduled result soon after the damage.
  const server = await startTestServer({ ...env, STORAGE_CHECK_HOURS: '0.001' });
  servers.push(server);
  const s3 = server.ctx.storage.kind === 's3';

  const uploaded = await uploadFiles(server.url, await specimenFiles(4, { width: 240, height: 160 }));
  const images = await Promise.all(uploaded.map(async (u) => (await server.json(`/api/images/${u.id}/`)).body));

  // Intact: exit 0, nothing reported.
  const clean = checkStorage(env);
  expect(clean.stderr).toBe('');
  expect(clean.status).toBe(0);
  expect(clean.stdout).toContain('nothing missing, corrupt or untracked');
  const cleanJson = JSON.parse(checkStorage(env, ['--json']).stdout);
  expect(cleanJson).toMatchObject({ ok: true, missing: 0, corrupt: 0, untracked: 0, problems: [] });
  // 4 originals and 4 thumbnails, every original read and hashed.
  expect(cleanJson.files).toBe(8);
  expect(cleanJson.bytes).toBe(images.reduce((n: number, i: any) => n + i.size, 0));

  // The damage, as a disk or a bucket does it: one bit of an original flipped, an original and a thumbnail
  // gone, a file no row names (and one of a shape no row could name).
  const damagedAt = new Date().toISOString();
  const flipped = keyOf(images[0].image_url);
  const removed = keyOf(images[1].image_url);
  const removedThumb = keyOf(images[2].thumbnail_url);
  const strayBytes = await fs.readFile(path.join(SERVER, 'package.json'));
  const straySha = crypto.randomBytes(32).toString('hex');
  const stray = `originals/${straySha.slice(0, 2)}/${straySha}.jpg`;
  const strayOther = 'notes/readme.txt';
  if (s3) {
    const bytes = (await server.ctx.storage.getBuffer(flipped))!;
    bytes[Math.floor(bytes.length / 2)]! ^= 0x01;
    await server.ctx.storage.putBuffer(flipped, bytes, 'image/jpeg');
    await server.ctx.storage.delete([removed, removedThumb]);
    await server.ctx.storage.putBuffer(stray, strayBytes, 'image/jpeg');
    await server.ctx.storage.putBuffer(strayOther, strayBytes, 'text/plain');
  } else {
    const file = (key: string) => path.join(dataDir, 'blobs', ...key.split('/'));
    const handle = await fs.open(file(flipped), 'r+');
    const one = Buffer.alloc(1);
    const at = Math.floor(images[0].size / 2);
    await handle.read(one, 0, 1, at);
    one[0]! ^= 0x01;
    await handle.write(one, 0, 1, at);
    await handle.close();
    await fs.rm(file(removed));
    await fs.rm(file(removedThumb));
    await fs.mkdir(path.dirname(file(stray)), { recursive: true });
    await fs.writeFile(file(stray), strayBytes);
    await fs.mkdir(path.dirname(file(strayOther)), { recursive: true });
    await fs.writeFile(file(strayOther), strayBytes);
  }

  // The command: exit 1, one line per problem, then the counts.
  const text = checkStorage(env);
  expect(text.stderr).toBe('');
  expect(text.status).toBe(1);
  const lines = text.stdout.split('\n');
  const line = (kind: string, key: string) => lines.find((l) => l.startsWith(kind) && l.includes(key));
  expect(line('CORRUPT', flipped)).toContain(`original of image ${images[0].id} ("${images[0].name}")`);
  expect(line('CORRUPT', flipped)).toContain(`expected ${images[0].sha256}`);
  expect(line('MISSING', removed)).toContain(`original of image ${images[1].id}`);
  expect(line('MISSING', removedThumb)).toContain(`thumbnail of image ${images[2].id}`);
  expect(line('UNTRACKED', stray)).toContain('no row names it');
  expect(line('UNTRACKED', strayOther)).toContain('no row names it');
  expect(text.stdout).toContain('2 missing, 1 corrupt, 2 untracked');

  const json = checkStorage(env, ['--json']);
  expect(json.status).toBe(1);
  const report = JSON.parse(json.stdout);
  expect(report).toMatchObject({ ok: false, missing: 2, corrupt: 1, untracked: 2, error: null });
  expect(report.storage).toBe(s3 ? 's3' : 'local');
  const byKey = new Map(report.problems.map((p: any) => [p.key, p]));
  expect(byKey.get(flipped)).toMatchObject({
    kind: 'corrupt',
    file: 'original',
    id: images[0].id,
    expected: { sha256: images[0].sha256, size: images[0].size },
    actual: { size: images[0].size },
  });
  expect((byKey.get(flipped) as any).actual.sha256).not.toBe(images[0].sha256);
  expect(byKey.get(removed)).toMatchObject({ kind: 'missing', file: 'original', id: images[1].id });
  expect(byKey.get(removedThumb)).toMatchObject({ kind: 'missing', file: 'thumbnail', id: images[2].id });
  expect(byKey.get(stray)).toMatchObject({ kind: 'untracked', file: 'original', id: null });
  expect(byKey.get(strayOther)).toMatchObject({ kind: 'untracked', file: 'other', id: null });

  // The server's own scheduled check finds the same, and /status/ says so (to anyone, like the rest of it).
  let status: any;
  await expect
    .poll(
      async () => {
        const details = (await server.json('/api/storage-check/')).body;
        status = (await server.json('/api/status/')).body;
        return details.trigger === 'schedule' && details.started_at > damagedAt && !details.running;
      },
      { timeout: 60_000, interval: 250 },
    )
    .toBe(true);
  status = (await server.json('/api/status/')).body;
  expect(status.status).toBe('online');
  expect(status.storage_check).toMatchObject({ missing: 2, corrupt: 1, untracked: 2, files: 8, error: null });
  expect(status.storage_check.checked_at > damagedAt).toBe(true);
  const details = (await server.json('/api/storage-check/')).body;
  expect(details.problems.map((p: any) => `${p.kind} ${p.key}`).sort()).toEqual(
    [
      `corrupt ${flipped}`,
      `missing ${removed}`,
      `missing ${removedThumb}`,
      `untracked ${stray}`,
      `untracked ${strayOther}`,
    ].sort(),
  );
  expect(details.interval_hours).toBe(0.001);
}, 180_000);

it('an admin starts a check now; two processes claiming the check at once: one wins', async () => {
  const server = await startTestServer({ WORKER_PROCESSES: '0', STORAGE_CHECK_HOURS: '0' });
  servers.push(server);
  const before = (await server.json('/api/storage-check/')).body;
  expect(before).toMatchObject({ checked_at: null, running: false, problems: [], interval_hours: 0 });
  expect((await server.json('/api/status/')).body.storage_check).toMatchObject({ checked_at: null, missing: 0 });
  await uploadFiles(server.url, await specimenFiles(1, { width: 200, height: 120 }));

  const started = await server.json('/api/storage-check/', { method: 'POST' });
  expect(started.status).toBe(202);
  await expect
    .poll(async () => (await server.json('/api/storage-check/')).body.checked_at, { timeout: 30_000, interval: 100 })
    .not.toBeNull();
  const done = (await server.json('/api/storage-check/')).body;
  expect(done).toMatchObject({ trigger: 'manual', running: false, missing: 0, corrupt: 0, untracked: 0, files: 2 });

  // The claim is one statement: of two at the same moment (two API processes' schedules), one runs the check.
  const other = await openDatabase({
    dataDir: server.dataDir,
    databaseUrl: server.ctx.config.databaseUrl,
  });
  try {
    const now = new Date().toISOString();
    const stale = new Date(Date.now() - 300_000).toISOString();
    const wins = await Promise.all([
      new StorageChecksRepository(server.ctx.db.kysely).claim('schedule', now, stale, now),
      new StorageChecksRepository(other.kysely).claim('schedule', now, stale, now),
    ]);
    expect(wins.filter(Boolean)).toHaveLength(1);
    // While it holds the row, "check now" is refused.
    const busy = await server.json('/api/storage-check/', { method: 'POST' });
    expect(busy.status).toBe(409);
    expect(busy.body.code).toBe('storage_check_running');
    expect((await server.json('/api/status/')).body.storage_check.running).toBe(true);
  } finally {
    await other.close();
  }
});
