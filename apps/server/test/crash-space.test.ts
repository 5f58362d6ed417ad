import type { ChildProcess } from 'node:child_process';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import type { BlobStorage } from '../src/storage/blob-storage.js';
import { createStorage } from '../src/storage/create-storage.js';
import { ensureServerBuilt, oneProcessEnv, startServerProcess, type ServerProcess } from './helpers/server-process.js';
import { specimenFiles, type SpecimenFile } from './helpers/specimens.js';

/**
 * Issue 13, point 3, with a real process killed by SIGKILL at the bad moments (CASSAVA_CRASH_POINT): during a
 * folder delete (rows gone, files not), during the move into storage (files in place, rows not), while an
 * upload is received (temp files). After a restart: zero orphaned blobs, zero temp leftovers. In the
 * scale-out pass the same runs on PostgreSQL + S3.
 */
const children: ChildProcess[] = [];
let dataDir = '';
let env: Record<string, string> = {};
let storage: BlobStorage | undefined;

afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  (storage as { close?: () => void } | undefined)?.close?.();
  if (dataDir) await fsp.rm(dataDir, { recursive: true, force: true });
});

function startServer(crashPoint?: string): Promise<ServerProcess> {
  return startServerProcess({ ...env, ...(crashPoint ? { CASSAVA_CRASH_POINT: crashPoint } : {}) }, children);
}

function form(files: SpecimenFile[], fields: Record<string, string> = {}): FormData {
  const f = new FormData();
  for (const [k, v] of Object.entries(fields)) f.append(k, v);
  for (const file of files)
    f.append('files', new Blob([new Uint8Array(file.bytes)], { type: 'image/jpeg' }), file.name);
  return f;
}

async function allKeys(): Promise<string[]> {
  const keys: string[] = [];
  for await (const k of storage!.list('')) keys.push(k);
  return keys.sort();
}

async function tempFiles(): Promise<string[]> {
  const root = path.join(dataDir, 'tmp');
  const entries = await fsp.readdir(root, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => e.name);
}

async function referenced(url: string): Promise<string[]> {
  const list = (await (await fetch(`${url}/api/images/?page_size=1000`)).json()) as {
    results: { image_url: string; thumbnail_url: string }[];
  };
  return list.results.flatMap((i) => [i.image_url, i.thumbnail_url].map((u) => u.replace(/^.*\/media\//, ''))).sort();
}

/** Sends a request the server dies in the middle of; resolves once the process is gone. */
async function crashWith(server: ServerProcess, request: () => Promise<Response>) {
  await request().catch(() => undefined);
  expect(await server.exited).toBe('SIGKILL');
}

describe('SIGKILL at the bad moments, then a restart', () => {
  it('leaves zero orphaned blobs and zero temp files', async () => {
    ensureServerBuilt();
    dataDir = await fsp.mkdtemp(path.join(os.tmpdir(), 'cassava-crash-space-'));
    // One API process and no worker processes: every orphan may go at once.
    env = { ...(await oneProcessEnv(dataDir)), ORPHAN_GRACE_MINUTES: '0' };
    storage = await createStorage(loadConfig(env));
    const photos = await specimenFiles(12, { width: 160, height: 100 });

    // A library: a folder of four photos and two uncategorised ones.
    const s0 = await startServer();
    const folder = (await (
      await fetch(`${s0.url}/api/folders/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"name":"plot 3"}',
      })
    ).json()) as { id: number };
    expect(
      (
        await fetch(`${s0.url}/api/images/upload-files/`, {
          method: 'POST',
          body: form(photos.slice(0, 4), { folder_id: String(folder.id) }),
        })
      ).status,
    ).toBe(201);
    expect(
      (await fetch(`${s0.url}/api/images/upload-files/`, { method: 'POST', body: form(photos.slice(4, 6)) })).status,
    ).toBe(201);
    const kept = await referenced(s0.url);
    s0.child.kill('SIGKILL');
    await s0.exited;

    // 1. Killed in a folder delete after the rows went, before the files did.
    const s1 = await startServer('delete-before-files');
    await crashWith(s1, () => fetch(`${s1.url}/api/folders/${folder.id}/?images=delete`, { method: 'DELETE' }));
    expect((await allKeys()).filter((k) => !kept.includes(k)).length).toBe(0);
    const afterDelete = (await allKeys()).length;
    expect(afterDelete).toBe(12);

    // 2. Killed while moving an upload into storage: files in place, no rows.
    const s2 = await startServer('upload-before-rows');
    await crashWith(s2, () =>
      fetch(`${s2.url}/api/images/upload-files/`, { method: 'POST', body: form(photos.slice(6, 9)) }),
    );
    expect((await allKeys()).length).toBeGreaterThan(0);

    // 3. Killed while an upload arrives: its first file is in the temp folder.
    const s3 = await startServer('upload-staged');
    await crashWith(s3, () =>
      fetch(`${s3.url}/api/images/upload-files/`, { method: 'POST', body: form(photos.slice(9, 12)) }),
    );
    expect((await tempFiles()).length).toBeGreaterThan(0);

    // The restart gives every byte back and keeps the library whole.
    const s4 = await startServer();
    const library = await referenced(s4.url);
    expect(library.length).toBe(4); // the two uncategorised photos: original + thumbnail each
    let keys = await allKeys();
    for (let i = 0; i < 200 && keys.length !== library.length; i++) {
      await new Promise((r) => setTimeout(r, 50));
      keys = await allKeys();
    }
    expect(keys).toEqual(library);
    expect(await tempFiles()).toEqual([]);
    for (const key of library) expect((await fetch(`${s4.url}/media/${key}`)).status).toBe(200);
    const stopped = s4.exited;
    s4.child.kill('SIGTERM');
    await stopped;
  }, 120_000);
});
