import crypto from 'node:crypto';
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/config/config.js';
import { S3Storage } from '../src/storage/s3-storage.js';
import { createTestBucket } from './helpers/scale-out-env.js';

// Against the CI's s3rver when TEST_S3_ENDPOINT is set, else against an s3rver started here: either way a
// real S3 API over HTTP, so this suite also runs in the embedded-default pass.
let endpoint = process.env.TEST_S3_ENDPOINT;
let ownServer: { close(): Promise<void> } | undefined;
let dataDir: string;

async function freshStorage(extraEnv: Record<string, string> = {}): Promise<S3Storage> {
  const config = loadConfig({ DATA_DIR: dataDir, ...(await createTestBucket(endpoint!)), ...extraEnv });
  return S3Storage.create(config.s3!, config.ossBaseUrl, config.dataDir);
}

async function tempFileWith(bytes: Buffer): Promise<string> {
  const file = path.join(dataDir, 'tmp', `${crypto.randomUUID()}.part`);
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, bytes);
  return file;
}

beforeAll(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cassava-s3-test-'));
  if (!endpoint) {
    const S3rver = createRequire(import.meta.url)('s3rver');
    const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: path.join(dataDir, 's3rver') });
    const { port } = await server.run();
    ownServer = server;
    endpoint = `http://127.0.0.1:${port}`;
  }
});

afterAll(async () => {
  await ownServer?.close();
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('S3Storage against a real S3 API', () => {
  it('round-trips a multi-MB file byte for byte through a streamed multipart upload, and removes the temp file', async () => {
    const storage = await freshStorage();
    // 19 MiB + a few bytes: three 8 MiB parts, the last one short, with random (incompressible) bytes.
    const bytes = crypto.randomBytes(19 * 1024 * 1024 + 123);
    const temp = await tempFileWith(bytes);
    await storage.putFile('originals/ab/abcdef.jpg', temp, 'image/jpeg');

    await expect(fs.stat(temp)).rejects.toThrow();
    const back = await storage.getBuffer('originals/ab/abcdef.jpg');
    expect(back?.length).toBe(bytes.length);
    expect(back?.equals(bytes)).toBe(true);

    const obj = await storage.get('originals/ab/abcdef.jpg');
    expect(obj?.size).toBe(bytes.length);
    expect(obj?.contentType).toBe('image/jpeg');
    const hash = crypto.createHash('sha256');
    for await (const chunk of obj!.stream) hash.update(chunk as Buffer);
    expect(hash.digest('hex')).toBe(crypto.createHash('sha256').update(bytes).digest('hex'));
    storage.close();
  });

  it('round-trips small files and buffers exactly, including an empty one', async () => {
    const storage = await freshStorage();
    const small = Buffer.from([0, 1, 2, 255, 13, 10, 0]);
    await storage.putFile('thumbs/a.webp', await tempFileWith(small), 'image/webp');
    await storage.putBuffer('results/1/2/pred_1.webp', Buffer.from('overlay bytes'), 'image/webp');
    await storage.putBuffer('results/1/2/empty.json', Buffer.alloc(0), 'application/json');

    expect((await storage.getBuffer('thumbs/a.webp'))?.equals(small)).toBe(true);
    expect((await storage.getBuffer('results/1/2/pred_1.webp'))?.toString()).toBe('overlay bytes');
    expect((await storage.getBuffer('results/1/2/empty.json'))?.length).toBe(0);
    expect((await storage.get('thumbs/a.webp'))?.contentType).toBe('image/webp');
    storage.close();
  });

  it('answers null/false for missing keys and refuses invalid ones', async () => {
    const storage = await freshStorage();
    expect(await storage.get('originals/none.jpg')).toBeNull();
    expect(await storage.getBuffer('originals/none.jpg')).toBeNull();
    expect(await storage.exists('originals/none.jpg')).toBe(false);
    expect(await storage.get('../etc/passwd')).toBeNull();
    await expect(storage.putBuffer('../escape', Buffer.from('x'), 'text/plain')).rejects.toThrow(/invalid storage key/);
    await storage.putBuffer('originals/yes.jpg', Buffer.from('y'), 'image/jpeg');
    expect(await storage.exists('originals/yes.jpg')).toBe(true);
    storage.close();
  });

  it('lists every key under a prefix across pages and deletes in batches, missing keys included', async () => {
    const storage = await freshStorage();
    // More than one ListObjectsV2 page (1000 keys) and more than one DeleteObjects batch.
    const keys = Array.from({ length: 1105 }, (_, i) => `results/7/${String(i).padStart(4, '0')}.webp`);
    for (let i = 0; i < keys.length; i += 50) {
      await Promise.all(keys.slice(i, i + 50).map((k) => storage.putBuffer(k, Buffer.from(k), 'image/webp')));
    }
    await storage.putBuffer('originals/keep.jpg', Buffer.from('keep'), 'image/jpeg');

    const listed: string[] = [];
    for await (const k of storage.list('results/7/')) listed.push(k);
    expect(listed.sort()).toEqual(keys);

    await storage.delete([...keys, 'results/7/never-existed.webp']);
    const after: string[] = [];
    for await (const k of storage.list('')) after.push(k);
    expect(after).toEqual(['originals/keep.jpg']);
    storage.close();
  });

  it('gives /media/ URLs by default and absolute OSS_BASE_URL URLs when configured', async () => {
    const plain = await freshStorage();
    expect(plain.url('originals/ab/x.jpg')).toBe('/media/originals/ab/x.jpg');
    plain.close();
    const oss = await freshStorage({ OSS_BASE_URL: 'https://cdn.example.org/cassava/' });
    expect(oss.url('originals/ab/x.jpg')).toBe('https://cdn.example.org/cassava/originals/ab/x.jpg');
    oss.close();
  });

  it('fails at start with a message naming the bucket when it does not exist', async () => {
    const config = loadConfig({
      DATA_DIR: dataDir,
      ...(await createTestBucket(endpoint!)),
      S3_BUCKET: 'no-such-bucket-here',
    });
    await expect(S3Storage.create(config.s3!, undefined, dataDir)).rejects.toThrow(/no-such-bucket-here/);
  });
});
