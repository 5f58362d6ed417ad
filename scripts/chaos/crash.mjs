// Chaos scenarios 1-3: SIGKILL in the middle of a ZIP upload, a folder delete and a task; then a restart on the
// same data, and the app's own storage check (npm run check-storage) counts what was lost or left behind.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import {
  allImages,
  api,
  createTask,
  getTask,
  largeJpegs,
  notServed,
  root,
  scenePhotos,
  taskResults,
  until,
  uploadAll,
} from './_stack.mjs';

const require = createRequire(path.join(root, 'apps/server/package.json'));
const yazl = require('yazl');

/** What the storage check found, as figures; `clean` when nothing is missing, corrupt or untracked. */
function storageFigures(check) {
  return {
    storage_files: check.files,
    stored_objects: check.listed,
    missing: check.missing,
    corrupt: check.corrupt,
    untracked: check.untracked,
    clean: check.missing + check.corrupt + check.untracked === 0 && !check.error,
  };
}

/**
 * After a restart the server removes a dead process's temp files and the stored files no row names in the
 * background, once it answers: waits (up to 60 s) until originals and thumbnails stored equal the image rows and
 * no temp file is left. Returns how long that took, or null when it did not happen.
 */
async function settled(inst) {
  const t0 = performance.now();
  try {
    await until(
      'stored files to match the rows',
      async () => {
        const rows = (await allImages(inst.url)).length;
        const originals = (await inst.listBlobs('originals/')).length;
        const thumbs = (await inst.listBlobs('thumbs/')).length;
        return rows === originals && rows === thumbs && inst.tempFiles() === 0 ? true : undefined;
      },
      60_000,
    );
    return Math.round(performance.now() - t0);
  } catch {
    return null;
  }
}

/** A stored ZIP of `files` ({name, bytes}) written to `file`. */
async function writeZip(files, file) {
  const zip = new yazl.ZipFile();
  for (const f of files) zip.addBuffer(f.bytes, f.name, { compress: false });
  zip.end();
  await new Promise((resolve, reject) =>
    zip.outputStream.pipe(fs.createWriteStream(file)).on('close', resolve).on('error', reject),
  );
}

/**
 * Streams `file` as the multipart body of POST /api/images/upload-batch/; calls `onProgress(sentShare)` after
 * each chunk and stops sending when it returns true. Resolves with the status, or the error once the server is gone.
 */
function streamZipUpload(url, file, onProgress) {
  const boundary = `chaos${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="check_duplicate"\r\n\r\n0\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photos.zip"\r\nContent-Type: application/zip\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const size = fs.statSync(file).size;
  const total = head.length + size + tail.length;
  return new Promise((resolve) => {
    const req = http.request(`${url}/api/images/upload-batch/`, {
      method: 'POST',
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': total },
    });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode }));
    });
    req.on('error', (err) => resolve({ error: err.code ?? err.message }));
    let sent = head.length;
    req.write(head);
    const stream = fs.createReadStream(file, { highWaterMark: 1 << 20 });
    stream.on('data', (chunk) => {
      sent += chunk.length;
      const more = req.write(chunk);
      if (onProgress(sent / total)) {
        stream.destroy();
        return;
      }
      if (!more) {
        stream.pause();
        req.once('drain', () => stream.resume());
      }
    });
    stream.on('end', () => req.end(tail));
  });
}

/**
 * 1. SIGKILL while a ~150 MB ZIP of 32 4000x3000 JPEGs is being uploaded, twice: once 60 % of the body is sent
 * (entries staged in temp files), and once the upload's first original is in storage (rows being written); a
 * restart after each. Every row has its stored files, nothing is untracked, no temp file is left.
 */
export async function zipUploadKill(stack) {
  const inst = await stack.install('zip');
  const zipFile = path.join(os.tmpdir(), `cassava-chaos-${process.pid}.zip`);
  try {
    const photos = (await largeJpegs(32)).map((bytes, i) => ({ name: `field/plot_${i}.jpg`, bytes }));
    await writeZip(photos, zipFile);
    const kills = [];
    for (const when of ['60% sent', 'first original stored']) {
      const before = (await inst.listBlobs('originals/')).length;
      let killed = null;
      let killing;
      const kill = (point) => {
        killed = point;
        killing = inst.kill({ workers: true });
      };
      let answer;
      const upload = streamZipUpload(inst.url, zipFile, (share) => {
        if (when === '60% sent' && killed === null && share >= 0.6 && inst.tempFiles() > 0) {
          kill(Math.round(share * 100) / 100);
          return true;
        }
        return false;
      }).then((a) => (answer = a));
      if (when === 'first original stored') {
        const stored = await until('the first original of the ZIP in storage', async () => {
          const n = (await inst.listBlobs('originals/')).length;
          return n > before || answer !== undefined ? n : undefined;
        });
        if (answer === undefined) kill(`${stored - before} originals stored`);
      }
      await upload;
      await killing;
      const tempAtKill = inst.tempFiles();
      await inst.restart();
      const settledMs = await settled(inst);
      const rows = await allImages(inst.url);
      const unserved = await notServed(
        inst.url,
        rows.flatMap((r) => [r.image_url, r.thumbnail_url]),
      );
      kills.push({
        kill: when,
        settled_ms: settledMs,
        killed_at: killed,
        upload_answer: answer.status ?? answer.error,
        temp_files_at_kill: tempAtKill,
        rows: rows.length,
        originals_stored: (await inst.listBlobs('originals/')).length,
        thumbs_stored: (await inst.listBlobs('thumbs/')).length,
        rows_not_served: unserved.length,
        temp_files_after_restart: inst.tempFiles(),
      });
    }
    const check = await inst.checkStorage();
    const figures = {
      zip_mb: Math.round(fs.statSync(zipFile).size / 2 ** 20),
      entries: photos.length,
      kills,
      ...storageFigures(check),
    };
    const ok =
      kills.every((k) => k.killed_at !== null && k.settled_ms !== null && k.rows_not_served === 0) &&
      kills.every((k) => k.rows === k.originals_stored && k.rows === k.thumbs_stored) &&
      figures.clean;
    return { ok, ...figures };
  } finally {
    fs.rmSync(zipFile, { force: true });
    await inst.close();
  }
}

/** A folder with `count` distinct photos; returns its id. */
async function filledFolder(url, name, count) {
  const folder = await api(url, 'POST', '/api/folders/', { name });
  await uploadAll(url, await scenePhotos(count, name.replace(/\W/g, '')), folder.body.id);
  return folder.body.id;
}

/**
 * 2. SIGKILL during DELETE /api/folders/{id}/?images=delete of 300 images; restart. A first folder is deleted
 * whole to time a delete; then a folder each is deleted with the server killed at a quarter, a half and three
 * quarters of that time (or as soon as a first file is gone, whichever comes first: the moment the delete is
 * between its first and last file). After each restart the folder and its images are all there, with their
 * files, or all gone, with theirs.
 */
export async function folderDeleteKill(stack) {
  const inst = await stack.install('folder-delete');
  try {
    const timed = await filledFolder(inst.url, 'timed', 300);
    const t0 = performance.now();
    const whole = await api(inst.url, 'DELETE', `/api/folders/${timed}/?images=delete`);
    const deleteMs = performance.now() - t0;
    if (whole.status !== 204) throw new Error(`the timed delete answered ${whole.status}`);
    const kills = [];
    for (const share of [0.25, 0.5, 0.75]) {
      const folderId = await filledFolder(inst.url, `kill ${share}`, 300);
      const before = (await inst.listBlobs('originals/')).length;
      const started = performance.now();
      let answered = null;
      const deleting = api(inst.url, 'DELETE', `/api/folders/${folderId}/?images=delete`).then(
        (r) => (answered = r.status),
        (err) => (answered = err.cause?.code ?? 'error'),
      );
      const killAfter = deleteMs * share;
      const originalsAtKill = await until('the kill point', async () => {
        const n = (await inst.listBlobs('originals/')).length;
        return n < before || answered !== null || performance.now() - started >= killAfter ? n : undefined;
      });
      const killedAfterMs = Math.round(performance.now() - started);
      const answeredBeforeKill = answered;
      await inst.kill({ workers: true });
      await deleting;
      await inst.restart();
      const settledMs = await settled(inst);
      const folderAfter = await api(inst.url, 'GET', `/api/folders/${folderId}/`);
      const rows = await allImages(inst.url);
      const unserved = await notServed(
        inst.url,
        rows.flatMap((r) => [r.image_url, r.thumbnail_url]),
      );
      // All or nothing: the folder and its 300 images gone, or all there with their files.
      const wholeOrGone =
        (folderAfter.status === 404 && rows.length === 0) || (folderAfter.status === 200 && rows.length === 300);
      kills.push({
        killed_after_ms: killedAfterMs,
        settled_ms: settledMs,
        answered_before_kill: answeredBeforeKill,
        originals_at_kill: `${originalsAtKill}/${before}`,
        folder_after: folderAfter.status,
        rows_after: rows.length,
        rows_not_served: unserved.length,
        originals_after: (await inst.listBlobs('originals/')).length,
        temp_files: inst.tempFiles(),
        all_or_nothing: wholeOrGone,
      });
      if (folderAfter.status === 200) await api(inst.url, 'DELETE', `/api/folders/${folderId}/?images=delete`);
    }
    const check = await inst.checkStorage();
    const figures = { images: 300, whole_delete_ms: Math.round(deleteMs), kills, ...storageFigures(check) };
    const ok =
      kills.every((k) => k.all_or_nothing && k.settled_ms !== null && k.rows_not_served === 0) &&
      kills.every((k) => k.originals_after === k.rows_after) &&
      figures.clean;
    return { ok, ...figures };
  } finally {
    await inst.close();
  }
}

/**
 * 3. SIGKILL during a running task (every process: the server, or the API and both workers); restart. The task
 * must end (completed, or failed with its reason), one result row per image, every result file served.
 */
export async function taskKill(stack) {
  const inst = await stack.install('task');
  try {
    const ids = await uploadAll(inst.url, await scenePhotos(120, 'tk'));
    const taskId = await createTask(inst.url, ids, 'chaos: killed mid-task');
    const atKill = await until('the task to be under way', async () => {
      const t = await getTask(inst.url, taskId);
      return t.processed_count >= 20 || t.status !== 'running' ? t : undefined;
    });
    await inst.kill({ workers: true });
    const restarted = performance.now();
    await inst.restart();
    const progress = [atKill.processed_count];
    const done = await until(
      'the task to end after the restart',
      async () => {
        const t = await getTask(inst.url, taskId);
        progress.push(t.processed_count);
        return t.status === 'running' ? undefined : t;
      },
      600_000,
    );
    const endedAfterS = Math.round((performance.now() - restarted) / 100) / 10;
    const { results, missing, files } = await taskResults(inst.url, taskId);
    const check = await inst.checkStorage();
    const backwards = progress.some((p, i) => i > 0 && p < progress[i - 1]);
    const figures = {
      images: ids.length,
      processed_at_kill: atKill.processed_count,
      status: done.status,
      processed: done.processed_count,
      failed: done.failed_count,
      result_rows: results.length,
      distinct_images: new Set(results.map((r) => r.image_id ?? r.image)).size,
      result_files: files,
      result_files_missing: missing.length,
      result_errors: Object.fromEntries(
        [...new Set(results.map((r) => r.error_code).filter(Boolean))].map((c) => [
          c,
          results.filter((r) => r.error_code === c).length,
        ]),
      ),
      progress_went_back: backwards,
      ended_s_after_restart: endedAfterS,
      temp_files_after_restart: inst.tempFiles(),
      ...storageFigures(check),
    };
    const ok =
      atKill.status === 'running' &&
      ['completed', 'failed'].includes(done.status) &&
      results.length === ids.length &&
      figures.distinct_images === ids.length &&
      missing.length === 0 &&
      !backwards &&
      figures.clean;
    return { ok, ...figures };
  } finally {
    await inst.close();
  }
}
