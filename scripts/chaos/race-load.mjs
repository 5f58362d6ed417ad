// Chaos scenarios 4 and 5: the blob race of issue 26 item 1 (a folder delete overlapping re-uploads of the same
// bytes), and readers and uploaders hammering the API while a task runs.
import { setTimeout as sleep } from 'node:timers/promises';
import {
  allImages,
  api,
  createTask,
  getTask,
  notServed,
  percentile,
  scenePhotos,
  uploadAll,
  uploadFiles,
} from './_stack.mjs';

/**
 * 4. Upload PHOTOS photos into a folder; send 30 re-uploads of 10 of them (check_duplicate=0), 3 every 15 ms;
 * once 3 have answered, delete the folder with its images. Afterwards every stored row's original and thumbnail
 * must be served (200), round after round.
 */
export async function blobRace(stack, { rounds = 3 } = {}) {
  const PHOTOS = stack.name === 'embedded' ? 200 : 100;
  const UPLOADS = 30;
  const PER_UPLOAD = 10;
  const inst = await stack.install('race');
  try {
    const perRound = [];
    let uploadsNot201 = 0;
    let deleteNot204 = 0;
    for (let round = 0; round < rounds; round++) {
      const photos = await scenePhotos(PHOTOS, `race${round}_`);
      const folder = await api(inst.url, 'POST', '/api/folders/', { name: `race ${round}` });
      await uploadAll(inst.url, photos, folder.body.id);
      const uploads = [];
      let answered = 0;
      let deleted;
      for (let u = 0; u < UPLOADS; u++) {
        const start = (u * PER_UPLOAD) % PHOTOS;
        uploads.push(
          uploadFiles(inst.url, photos.slice(start, start + PER_UPLOAD)).then((r) => {
            if (++answered === 3)
              deleted = api(inst.url, 'DELETE', `/api/folders/${folder.body.id}/?images=delete`).then((d) => d.status);
            return r.status;
          }),
        );
        if (u % 3 === 2) await sleep(15); // the pace of the race itself, not a wait for a condition
      }
      const statuses = await Promise.all(uploads);
      uploadsNot201 += statuses.filter((s) => s !== 201).length;
      if ((await deleted) !== 204) deleteNot204++;
      const rows = await allImages(inst.url);
      const unserved = await notServed(
        inst.url,
        rows.flatMap((r) => [r.image_url, r.thumbnail_url]),
      );
      perRound.push({ rows: rows.length, unserved: unserved.length });
    }
    const check = await inst.checkStorage();
    const figures = {
      rounds,
      uploads_per_round: UPLOADS,
      uploads_not_201: uploadsNot201,
      deletes_not_204: deleteNot204,
      rows_after_each_round: perRound.map((r) => r.rows),
      rows_not_served: perRound.reduce((n, r) => n + r.unserved, 0),
      missing: check.missing,
      corrupt: check.corrupt,
      untracked: check.untracked,
    };
    const ok =
      uploadsNot201 === 0 &&
      deleteNot204 === 0 &&
      figures.rows_not_served === 0 &&
      check.missing + check.corrupt + check.untracked === 0;
    return { ok, ...figures };
  } finally {
    await inst.close();
  }
}

/** 5. READERS readers and UPLOADERS uploaders for SECONDS s while a 300-image task runs: requests, errors, p95. */
export async function load(stack, { readers = 20, uploaders = 3, seconds = 30 } = {}) {
  const inst = await stack.install('load');
  try {
    const ids = await uploadAll(inst.url, await scenePhotos(300, 'ld'));
    const thumbs = (await allImages(inst.url)).map((r) => r.thumbnail_url);
    const pool = await scenePhotos(60, 'ldup');
    const taskId = await createTask(inst.url, ids, 'chaos: under load');
    const taskBefore = await getTask(inst.url, taskId);
    const readTimes = [];
    const uploadTimes = [];
    const errors = {};
    const end = Date.now() + seconds * 1000;
    const timed = async (times, request) => {
      const t0 = performance.now();
      try {
        const res = await request();
        if (res.status >= 400) errors[res.status] = (errors[res.status] ?? 0) + 1;
      } catch (err) {
        const code = err.cause?.code ?? err.message;
        errors[code] = (errors[code] ?? 0) + 1;
      }
      times.push(performance.now() - t0);
    };
    const get = async (p) => {
      const res = await fetch(inst.url + p);
      await res.arrayBuffer();
      return res;
    };
    const readPaths = (n) => [
      `/api/images/?page=${1 + (n % 6)}&page_size=50`,
      '/api/folders/',
      '/api/tasks/',
      `/api/tasks/${taskId}/`,
      '/api/status/',
      thumbs[n % thumbs.length],
      `/api/images/?search=chaos_ld00${n % 10}`,
    ];
    const reader = async (r) => {
      for (let n = r; Date.now() < end; n++) {
        const paths = readPaths(n);
        await timed(readTimes, () => get(paths[n % paths.length]));
      }
    };
    const uploader = async (u) => {
      for (let n = 0; Date.now() < end; n++) {
        const start = ((u * 20 + n * 5) % pool.length) | 0;
        await timed(uploadTimes, () => uploadFiles(inst.url, pool.slice(start, start + 5)));
      }
    };
    await Promise.all([
      ...Array.from({ length: readers }, (_, r) => reader(r)),
      ...Array.from({ length: uploaders }, (_, u) => uploader(u)),
    ]);
    const taskAfter = await getTask(inst.url, taskId);
    const errorCount = Object.values(errors).reduce((a, b) => a + b, 0);
    const figures = {
      readers,
      uploaders,
      load_seconds: seconds,
      requests: readTimes.length + uploadTimes.length,
      reads: readTimes.length,
      uploads: uploadTimes.length,
      errors: errorCount,
      error_kinds: errors,
      read_p50_ms: percentile(readTimes, 50),
      read_p95_ms: percentile(readTimes, 95),
      upload_p95_ms: percentile(uploadTimes, 95),
      task_images_scored_during: taskAfter.processed_count - taskBefore.processed_count,
      task_status_after: taskAfter.status,
      alive: inst.alive(),
    };
    return { ok: errorCount === 0 && inst.alive() && taskAfter.status !== 'failed', ...figures };
  } finally {
    await inst.close();
  }
}
