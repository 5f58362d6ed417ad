// The two ways of running CassavaScope the chaos check drives (scripts/chaos.mjs), with what every scenario needs:
// start an installation, kill and restart its processes, ask the API, run the app's own storage check, photos.
//   embedded:  node apps/server/dist/main.js on SQLite + files under DATA_DIR, the in-process worker (WORKERS=2);
//   scale-out: the same API on PostgreSQL + an S3 bucket (s3rver) that works no jobs, and two
//              apps/server/dist/worker-main.js processes (WORKERS=1 each), as docs/deployment.md's recipe.
// Servers and workers are started by scripts/bench/_server.mjs, PostgreSQL and s3rver by scripts/scale-out/services.mjs.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startServer, startWorker } from '../bench/_server.mjs';
import { S3_ACCESS_KEY, S3_SECRET_KEY, startPostgres, startS3rver } from '../scale-out/services.mjs';

export const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const require = createRequire(path.join(root, 'apps/server/package.json'));
const pg = require('pg');
const sharp = require('sharp');
const {
  S3Client,
  CreateBucketCommand,
  ListObjectsV2Command,
  GetObjectCommand,
  PutObjectCommand,
  DeleteObjectCommand,
} = require('@aws-sdk/client-s3');

/** The poll interval of every wait: short, the wait itself is for a condition. */
export const POLL_MS = 50;

/** Polls `probe` until it returns something other than undefined; `what` names it in the time-out error. */
export async function until(what, probe, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}`);
    await sleep(POLL_MS);
  }
}

export function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]);
}

/** Files under `dir`, recursively (0 when it does not exist). */
export function countFiles(dir) {
  if (!fs.existsSync(dir)) return 0;
  return fs.readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).length;
}

// ---------------------------------------------------------------------------------------------------------
// Photos

/** A copy of `jpeg` with a comment segment after SOI: other bytes (another blob), the same pixels. */
export function variant(jpeg, tag) {
  const text = Buffer.from(`chaos ${tag}`);
  const segment = Buffer.alloc(4 + text.length);
  segment.writeUInt16BE(0xfffe, 0);
  segment.writeUInt16BE(2 + text.length, 2);
  text.copy(segment, 4);
  return Buffer.concat([jpeg.subarray(0, 2), segment, jpeg.subarray(2)]);
}

/** Camera-sized JPEGs (4000x3000, ~4.7 MB each: smooth noise), `count` distinct files from a few bases. */
export async function largeJpegs(count) {
  const bases = [];
  for (let i = 0; i < 4; i++) {
    const raw = crypto.randomBytes(1000 * 750 * 3);
    bases.push(
      await sharp(raw, { raw: { width: 1000, height: 750, channels: 3 } })
        .resize(4000, 3000)
        .jpeg({ quality: 85 })
        .toBuffer(),
    );
  }
  return Array.from({ length: count }, (_, i) => variant(bases[i % bases.length], `large ${i} ${Math.random()}`));
}

let scenes;
/** `count` distinct 480x360 root-slice photos the engine scores (24 rendered scenes, distinct bytes each). */
export async function scenePhotos(count, tag = '') {
  if (!scenes) {
    const { renderSceneJpeg } = await import(path.join(root, 'packages/ppd/dist/synthetic/slice-scene.js'));
    scenes = [];
    for (let i = 0; i < 24; i++) scenes.push((await renderSceneJpeg({ width: 480, height: 360, seed: 500 + i })).jpeg);
  }
  return Array.from({ length: count }, (_, i) => ({
    name: `chaos_${tag}${String(i).padStart(4, '0')}.jpg`,
    bytes: variant(scenes[i % scenes.length], `${tag} ${i} ${Math.random()}`),
  }));
}

// ---------------------------------------------------------------------------------------------------------
// The API

/** A request to the installation; JSON in and out; never throws on a status (network errors do throw). */
export async function api(url, method, pathName, body, headers = {}) {
  const res = await fetch(url + pathName, {
    method,
    headers: body && !(body instanceof FormData) ? { 'content-type': 'application/json', ...headers } : headers,
    body: body instanceof FormData ? body : body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = text;
  }
  return { status: res.status, body: json, headers: res.headers };
}

/** POST /api/images/upload-files/ of `files` ({name, bytes}), check_duplicate=0; returns the response. */
export function uploadFiles(url, files, folderId) {
  const form = new FormData();
  for (const f of files) form.append('files', new Blob([f.bytes], { type: 'image/jpeg' }), f.name);
  if (folderId !== undefined) form.append('folder_id', String(folderId));
  form.append('check_duplicate', '0');
  return api(url, 'POST', '/api/images/upload-files/', form);
}

/** Uploads `files` 50 a request; returns the new images' ids. */
export async function uploadAll(url, files, folderId) {
  const ids = [];
  for (let i = 0; i < files.length; i += 50) {
    const res = await uploadFiles(url, files.slice(i, i + 50), folderId);
    if (res.status !== 201) throw new Error(`upload answered ${res.status}: ${JSON.stringify(res.body)}`);
    ids.push(...res.body.uploaded.map((u) => u.id));
  }
  return ids;
}

/** Every image row the API lists. */
export async function allImages(url) {
  const images = [];
  for (let page = 1; ; page++) {
    const res = await api(url, 'GET', `/api/images/?page_size=500&page=${page}`);
    if (res.status !== 200) throw new Error(`GET /api/images/ answered ${res.status}`);
    images.push(...res.body.results);
    if (!res.body.next) return images;
  }
}

/** GETs each URL (relative to the API); returns the ones not answering 200, as "status url". */
export async function notServed(url, urls) {
  const bad = [];
  for (let i = 0; i < urls.length; i += 8) {
    await Promise.all(
      urls.slice(i, i + 8).map(async (u) => {
        const res = await fetch(new URL(u, url));
        await res.arrayBuffer();
        if (res.status !== 200) bad.push(`${res.status} ${u}`);
      }),
    );
  }
  return bad;
}

export async function createTask(url, imageIds, name) {
  const res = await api(url, 'POST', '/api/tasks/prediction/', { name, image_ids: imageIds, split_count: 16 });
  if (res.status !== 201) throw new Error(`task creation answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.id;
}

export async function getTask(url, id) {
  const res = await api(url, 'GET', `/api/tasks/${id}/`);
  if (res.status !== 200) throw new Error(`GET task answered ${res.status}`);
  return res.body;
}

/** The task's result rows; `missing`: those of their files (original, pictures) /media does not serve. */
export async function taskResults(url, taskId) {
  const res = await api(url, 'GET', `/api/predictions/?task_id=${taskId}&page_size=1000`);
  const results = res.body.results;
  const files = results.flatMap((r) => Object.values(r.vis_images ?? {}));
  return { results, missing: await notServed(url, files), files: files.length };
}

// ---------------------------------------------------------------------------------------------------------
// Installations

/**
 * An installation on `stackName`: one API server (+ two workers on scale-out), a fresh DATA_DIR (+ database
 * and bucket). `env`: extra environment of the API.
 */
async function install(stack, name, env = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `cassava-chaos-${name}-`));
  const shared = await stack.sharedEnv(name);
  const apiEnv = { LOG_LEVEL: 'warn', WORKERS: '2', ...shared, ...stack.apiEnv, ...env };
  const probePath = apiEnv.AUTH === 'on' ? '/api/status/' : undefined;
  const start = () => startServer(dataDir, { env: apiEnv, ...(probePath ? { probePath } : {}) });
  const inst = {
    stack: stack.name,
    dataDir,
    env: { ...shared, DATA_DIR: dataDir },
    server: await start(),
    workers: [],
    get url() {
      return this.server.url;
    },
    /** SIGKILLs the API (and, `workers: true`, the workers); resolves once they are gone. */
    async kill({ workers = false } = {}) {
      await this.server.kill('SIGKILL');
      if (workers) for (const w of this.workers) await w.kill('SIGKILL');
    },
    /** Starts the API again on the same data (a new port), and any worker that is not running. */
    async restart() {
      if (this.server.alive()) await this.server.kill('SIGKILL');
      this.server = await start();
      for (let i = 0; i < this.workers.length; i++)
        if (!this.workers[i].alive()) this.workers[i] = await startWorker(this.workerEnv(i));
    },
    workerEnv(i) {
      const dir = path.join(dataDir, `worker-${i}`);
      fs.mkdirSync(dir, { recursive: true });
      return { ...shared, DATA_DIR: dir, WORKERS: '1', JOB_EXPIRE_SECONDS: '6' };
    },
    alive() {
      return this.server.alive() && this.workers.every((w) => w.alive());
    },
    /** The app's own storage check (`npm run check-storage -- --json`), every file judged at once. */
    checkStorage() {
      return checkStorage({ ...this.env });
    },
    /** Temp files left under DATA_DIR/tmp (uploads in progress, results being written). */
    tempFiles() {
      return countFiles(path.join(dataDir, 'tmp'));
    },
    /** The stored bytes of `key`, and ways to replace or remove them (local files or the bucket). */
    readBlob: (key) => stack.readBlob(inst, key),
    writeBlob: (key, bytes) => stack.writeBlob(inst, key, bytes),
    removeBlob: (key) => stack.removeBlob(inst, key),
    /** Keys stored under `prefix` (originals/, thumbs/, results/). */
    listBlobs: (prefix) => stack.listBlobs(inst, prefix),
    async close() {
      await this.server.kill('SIGTERM');
      for (const w of this.workers) await w.kill('SIGTERM');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  for (let i = 0; i < stack.workerCount; i++) inst.workers.push(await startWorker(inst.workerEnv(i)));
  return inst;
}

function checkStorage(env) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [path.join(root, 'apps/server/dist/cli/check-storage-command.js'), '--json', '--grace-minutes', '0'],
      { env: { ...process.env, LOG_LEVEL: 'silent', ...env }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    child.once('exit', (code) => {
      try {
        resolve({ exitCode: code, ...JSON.parse(out) });
      } catch {
        reject(new Error(`check-storage exited ${code}: ${err.trim() || out.trim()}`));
      }
    });
  });
}

function walk(dir, rel = '') {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name), `${rel}${e.name}/`) : [`${rel}${e.name}`]));
}

/** SQLite + files under DATA_DIR/blobs + the in-process worker. */
export async function embeddedStack() {
  const stack = {
    name: 'embedded',
    workerCount: 0,
    apiEnv: {},
    sharedEnv: async () => ({}),
    readBlob: (inst, key) => fs.readFileSync(path.join(inst.dataDir, 'blobs', key)),
    writeBlob: (inst, key, bytes) => fs.writeFileSync(path.join(inst.dataDir, 'blobs', key), bytes),
    removeBlob: (inst, key) => fs.rmSync(path.join(inst.dataDir, 'blobs', key)),
    listBlobs: (inst, prefix) => walk(path.join(inst.dataDir, 'blobs', prefix)).map((k) => prefix + k),
    install: (name, env) => install(stack, name, env),
    async close() {},
  };
  return stack;
}

/** PostgreSQL (a throwaway cluster) + an s3rver bucket + two worker processes; a fresh database and bucket each. */
export async function scaleOutStack() {
  const cluster = await startPostgres();
  let s3;
  try {
    s3 = await startS3rver();
  } catch (err) {
    cluster.stop();
    throw err;
  }
  const client = new S3Client({
    endpoint: s3.endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: S3_ACCESS_KEY, secretAccessKey: S3_SECRET_KEY },
  });
  const bucketOf = (inst) => inst.env.S3_BUCKET;
  const stack = {
    name: 'scale-out',
    workerCount: 2,
    cluster,
    // A dedicated API node; orphans are swept at once at its start (one API process: docs/deployment.md).
    apiEnv: { API_WORKS_JOBS: 'false', WORKER_PROCESSES: '0', ORPHAN_GRACE_MINUTES: '0', JOB_EXPIRE_SECONDS: '6' },
    async sharedEnv(name) {
      const db = `chaos_${name.replace(/\W/g, '_')}_${crypto.randomBytes(3).toString('hex')}`;
      const admin = new pg.Client({ connectionString: cluster.url });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${db}`);
      await admin.end();
      const bucket = db.replace(/_/g, '-');
      await client.send(new CreateBucketCommand({ Bucket: bucket }));
      const url = new URL(cluster.url);
      url.pathname = `/${db}`;
      return {
        DATABASE_URL: url.toString(),
        S3_ENDPOINT: s3.endpoint,
        S3_BUCKET: bucket,
        S3_ACCESS_KEY_ID: S3_ACCESS_KEY,
        S3_SECRET_ACCESS_KEY: S3_SECRET_KEY,
        S3_REGION: 'us-east-1',
        S3_FORCE_PATH_STYLE: 'true',
      };
    },
    async readBlob(inst, key) {
      const res = await client.send(new GetObjectCommand({ Bucket: bucketOf(inst), Key: key }));
      return Buffer.from(await res.Body.transformToByteArray());
    },
    writeBlob: (inst, key, bytes) =>
      client.send(new PutObjectCommand({ Bucket: bucketOf(inst), Key: key, Body: bytes })),
    removeBlob: (inst, key) => client.send(new DeleteObjectCommand({ Bucket: bucketOf(inst), Key: key })),
    async listBlobs(inst, prefix) {
      const keys = [];
      let token;
      do {
        const res = await client.send(
          new ListObjectsV2Command({ Bucket: bucketOf(inst), Prefix: prefix, ContinuationToken: token }),
        );
        keys.push(...(res.Contents ?? []).map((o) => o.Key));
        token = res.NextContinuationToken;
      } while (token);
      return keys;
    },
    install: (name, env) => install(stack, name, env),
    async close() {
      client.destroy();
      s3.stop();
      cluster.stop();
    },
  };
  return stack;
}

/** The storage key of a /media/... URL. */
export function mediaKey(mediaUrl) {
  return decodeURIComponent(new URL(mediaUrl, 'http://x').pathname.replace(/^\/media\//, ''));
}
