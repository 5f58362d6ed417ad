import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { scaleOutEnvForTest } from './helpers/scale-out-env.js';
import { specimenFiles, uploadFiles, waitForTask } from './helpers/specimens.js';
import { startTestServer, type TestServer } from './helpers/test-server.js';
import { entryArgs } from '../src/util/entry-args.js';

/**
 * Issue 26, point 6: a backup command for each stack, and the restore recipe of docs/deployment.md ("Backup and
 * restore") tested against it. Photos uploaded through the API and a task's results are backed up while the
 * server runs (`npm run backup -- --to DIR`), restored into a fresh installation (`npm run restore -- --from DIR`:
 * a new DATA_DIR on the embedded default; a new PostgreSQL database and bucket in the scale-out pass), which
 * the storage check finds complete; a server started on it shows the same images, byte for byte, and results.
 */
const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const servers: TestServer[] = [];
const dirs: string[] = [];
afterAll(async () => {
  for (const s of servers) await s.close();
  await Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true })));
});

function command(file: string, env: Record<string, string>, args: string[]) {
  return spawnSync(process.execPath, [...entryArgs(`src/cli/${file}`), ...args], {
    cwd: SERVER,
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    encoding: 'utf8',
    timeout: 300_000,
  });
}

async function tempDir(prefix: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), prefix));
  dirs.push(dir);
  return dir;
}

/**
 * An installation's environment: its DATA_DIR (and its own PostgreSQL database and bucket in the scale-out pass;
 * a restore's target is a database nothing has touched yet, as a new installation's is).
 */
async function installation(
  prefix: string,
  options: { emptyDatabase?: boolean } = {},
): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    DATA_DIR: await tempDir(prefix),
    ...(await scaleOutEnvForTest(options)),
    WORKER_PROCESSES: '0',
    STORAGE_CHECK_HOURS: '0',
  };
  delete env.API_WORKS_JOBS;
  return env;
}

async function bytesOf(server: TestServer, url: string): Promise<Buffer> {
  const res = await server.request(url);
  expect(res.status).toBe(200);
  return Buffer.from(await res.arrayBuffer());
}

it('backs up a running installation and restores it into a new one: same images, bytes and results', async () => {
  const sourceEnv = await installation('cassava-backup-src-');
  const source = await startTestServer(sourceEnv);
  servers.push(source);
  const uploaded = await uploadFiles(source.url, await specimenFiles(3, { width: 360, height: 240 }));
  const created = await source.json('/api/tasks/prediction/', {
    method: 'POST',
    body: { name: 'Before the backup', image_ids: uploaded.map((u) => u.id) },
  });
  expect(created.status).toBe(201);
  const { task } = await waitForTask(source.url, created.body.id);
  expect(task.status).toBe('completed');
  const images = (await source.json('/api/images/?ordering=name')).body.results;
  const results = (await source.json(`/api/predictions/?task_id=${task.id}&ordering=imageName`)).body.results;
  expect(results.filter((r: any) => r.ppd_value !== null)).toHaveLength(3);

  // The backup, while the server runs.
  const backupDir = path.join(await tempDir('cassava-backup-'), 'cassavascope-backup');
  const made = command('backup-command.ts', sourceEnv, ['--to', backupDir, '--json']);
  expect(made.stderr).not.toContain('failed');
  expect(made.status).toBe(0);
  const manifest = JSON.parse(made.stdout);
  const s3 = source.ctx.storage.kind === 's3';
  expect(manifest).toMatchObject({ database: s3 ? 'postgres' : 'sqlite', storage: s3 ? 's3' : 'local' });
  // 3 originals, 3 thumbnails and the result pictures.
  expect(manifest.files).toBeGreaterThan(6);
  const inFolder = await fs.readdir(backupDir);
  expect(inFolder).toContain(s3 ? 'cassavascope.dump' : 'cassavascope.db');
  expect(inFolder).toContain('blobs');

  // Run again into the same folder: brought up to date, nothing copied twice.
  const again = command('backup-command.ts', sourceEnv, ['--to', backupDir, '--json']);
  expect(again.status).toBe(0);
  expect(JSON.parse(again.stdout)).toMatchObject({ files: 0, skipped: manifest.files });
  // Any other non-empty folder is refused.
  const busyDir = await tempDir('cassava-backup-busy-');
  await fs.writeFile(path.join(busyDir, 'notes.txt'), 'mine');
  const refused = command('backup-command.ts', sourceEnv, ['--to', busyDir]);
  expect(refused.status).toBe(1);
  expect(refused.stderr).toContain('not empty');

  // The recipe: restore into a new, empty installation, check it, start a server on it.
  const targetEnv = await installation('cassava-restore-', { emptyDatabase: true });
  const restored = command('restore-command.ts', targetEnv, ['--from', backupDir, '--json']);
  expect(restored.stderr).not.toContain('failed');
  expect(restored.status).toBe(0);
  expect(JSON.parse(restored.stdout)).toMatchObject({ files: manifest.files, skipped: 0 });
  const check = command('check-storage-command.ts', { ...targetEnv, STORAGE_CHECK_GRACE_MINUTES: '0' }, ['--json']);
  expect(check.status).toBe(0);
  expect(JSON.parse(check.stdout)).toMatchObject({ ok: true, missing: 0, corrupt: 0, untracked: 0 });
  // A second restore into it is refused (the target is not empty).
  const twice = command('restore-command.ts', targetEnv, ['--from', backupDir]);
  expect(twice.status).toBe(1);
  expect(twice.stderr).toMatch(/not empty|exists/);

  const target = await startTestServer(targetEnv);
  servers.push(target);
  const restoredImages = (await target.json('/api/images/?ordering=name')).body.results;
  const fields = (i: any) => ({ id: i.id, name: i.name, sha256: i.sha256, size: i.size, ppdValue: i.ppdValue });
  expect(restoredImages.map(fields)).toEqual(images.map(fields));
  for (let i = 0; i < images.length; i++) {
    expect(
      (await bytesOf(target, restoredImages[i].image_url)).equals(await bytesOf(source, images[i].image_url)),
    ).toBe(true);
    expect(
      (await bytesOf(target, restoredImages[i].thumbnail_url)).equals(await bytesOf(source, images[i].thumbnail_url)),
    ).toBe(true);
  }
  const restoredTask = (await target.json(`/api/tasks/${task.id}/`)).body;
  expect(restoredTask).toMatchObject({ name: 'Before the backup', status: 'completed' });
  const restoredResults = (await target.json(`/api/predictions/?task_id=${task.id}&ordering=imageName`)).body.results;
  const values = (r: any) => ({ id: r.id, image_id: r.image_id, ppd_value: r.ppd_value, sub: r.sub_ppd_values });
  expect(restoredResults.map(values)).toEqual(results.map(values));
  for (let i = 0; i < results.length; i++) {
    expect(
      (await bytesOf(target, restoredResults[i].result_image_url)).equals(
        await bytesOf(source, results[i].result_image_url),
      ),
    ).toBe(true);
  }
  // Ids go on after the restored ones.
  const more = await uploadFiles(target.url, await specimenFiles(1, { width: 200, height: 120, seed: 50 }));
  expect(more[0]!.id).toBeGreaterThan(Math.max(...images.map((i: any) => i.id)));
}, 300_000);
