// Chaos scenarios 6-8: a PostgreSQL restart mid-task (scale-out), a bit-flipped and a removed stored original,
// and the header / origin / multipart checks of issue 26 items 2, 4 and 5.
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  allImages,
  createTask,
  getTask,
  mediaKey,
  POLL_MS,
  scenePhotos,
  taskResults,
  until,
  uploadAll,
} from './_stack.mjs';

/**
 * 6. `pg_ctl -m fast restart` while a task runs on the scale-out stack: the API and both workers stay alive,
 * /api/status/ answers 503 during the outage and 200 again after, the task completes.
 */
export async function pgRestart(stack) {
  const inst = await stack.install('pg-restart');
  try {
    const ids = await uploadAll(inst.url, await scenePhotos(60, 'pg'));
    const taskId = await createTask(inst.url, ids, 'chaos: database restart');
    const atRestart = await until('the task to be under way', async () => {
      const t = await getTask(inst.url, taskId);
      return t.processed_count >= 4 ? t : undefined;
    });
    // /api/status/ polled all along: what an operator's monitoring sees.
    const seen = {};
    let polling = true;
    let firstOutage = null;
    let recoveredAt = null;
    let restarted = false;
    const t0 = performance.now();
    const poller = (async () => {
      while (polling) {
        let status;
        try {
          const res = await fetch(`${inst.url}/api/status/`);
          await res.arrayBuffer();
          status = res.status;
        } catch (err) {
          status = err.cause?.code ?? 'error';
        }
        seen[status] = (seen[status] ?? 0) + 1;
        if (status !== 200 && firstOutage === null) firstOutage = performance.now() - t0;
        if (status === 200 && restarted && recoveredAt === null) recoveredAt = performance.now() - t0;
        await sleep(POLL_MS);
      }
    })();
    await stack.cluster.restartInBackground();
    const restartMs = performance.now() - t0;
    restarted = true;
    // Each wait ends early when a process has died: that is the finding, not a time-out.
    const DEAD = 'a process died';
    const whileAlive = (what, probe, ms) => until(what, async () => (inst.alive() ? probe() : DEAD), ms);
    let done = await whileAlive('/api/status/ to answer 200 after the restart', async () =>
      recoveredAt !== null ? true : undefined,
    );
    if (done !== DEAD)
      done = await whileAlive(
        'the task to end',
        async () => {
          const t = await getTask(inst.url, taskId);
          return t.status === 'running' ? undefined : t;
        },
        600_000,
      );
    polling = false;
    await poller;
    if (done === DEAD)
      return {
        ok: false,
        images: ids.length,
        processed_at_restart: atRestart.processed_count,
        pg_restart_ms: Math.round(restartMs),
        status_answers: seen,
        api_alive: inst.server.alive(),
        workers_alive: inst.workers.filter((w) => w.alive()).length,
        error: DEAD,
      };
    const { results, missing } = await taskResults(inst.url, taskId);
    const figures = {
      images: ids.length,
      processed_at_restart: atRestart.processed_count,
      pg_restart_ms: Math.round(restartMs),
      status_answers: seen,
      outage_reported_after_ms: firstOutage === null ? null : Math.round(firstOutage),
      status_200_again_after_ms: recoveredAt === null ? null : Math.round(recoveredAt),
      api_alive: inst.server.alive(),
      workers_alive: inst.workers.filter((w) => w.alive()).length,
      task_status: done.status,
      processed: done.processed_count,
      failed: done.failed_count,
      result_rows: results.length,
      result_files_missing: missing.length,
    };
    const ok =
      inst.alive() &&
      firstOutage !== null &&
      done.status === 'completed' &&
      results.length === ids.length &&
      missing.length === 0;
    return { ok, ...figures };
  } finally {
    await inst.close();
  }
}

/** 7. One stored original gets a flipped bit, another is removed: the storage check reports both, by key. */
export async function storageDamage(stack) {
  const inst = await stack.install('damage');
  try {
    await uploadAll(inst.url, await scenePhotos(12, 'dm'));
    const before = await inst.checkStorage();
    const [flipped, removed] = (await allImages(inst.url)).map((r) => mediaKey(r.image_url));
    const bytes = Buffer.from(await inst.readBlob(flipped));
    bytes[Math.floor(bytes.length / 2)] ^= 0x10;
    await inst.writeBlob(flipped, bytes);
    await inst.removeBlob(removed);
    const check = await inst.checkStorage();
    const reported = (kind) => check.problems.filter((p) => p.kind === kind).map((p) => p.key);
    const figures = {
      before: { missing: before.missing, corrupt: before.corrupt, untracked: before.untracked },
      files_checked: check.files,
      corrupt: check.corrupt,
      missing: check.missing,
      untracked: check.untracked,
      corrupt_key_named: reported('corrupt').includes(flipped),
      missing_key_named: reported('missing').includes(removed),
      exit_code: check.exitCode,
    };
    const ok =
      before.missing + before.corrupt + before.untracked === 0 &&
      check.corrupt === 1 &&
      check.missing === 1 &&
      figures.corrupt_key_named &&
      figures.missing_key_named &&
      check.exitCode === 1;
    return { ok, ...figures };
  } finally {
    await inst.close();
  }
}

/** A raw HTTP request (Host and Origin as given); resolves with status, headers, body and the time it took. */
function rawRequest(url, method, pathName, headers, body) {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(url + pathName, { method, headers, timeout: 30_000 }, (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () =>
        resolve({ status: res.statusCode, headers: res.headers, body: text, ms: Math.round(performance.now() - t0) }),
      );
    });
    req.on('timeout', () => req.destroy(new Error('no answer in 30 s')));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * 8. Sign-in on (AUTH=on, TRUST_PROXY=1): a write whose Origin is another port is refused (403); the web app's
 * CSP has no 'unsafe-inline' and no http: image source; HSTS when X-Forwarded-Proto says https; a multipart
 * part whose filename* decodes to a line break, with a 48 KB body, answered 400 within a second.
 */
export async function headers(stack) {
  const admin = { username: 'chaosadmin', password: 'chaos-admin-password-1' };
  const inst = await stack.install('headers', {
    AUTH: 'on',
    TRUST_PROXY: '1',
    ADMIN_USERNAME: admin.username,
    ADMIN_PASSWORD: admin.password,
  });
  try {
    const port = new URL(inst.url).port;
    const host = `localhost:${port}`;
    const self = `http://${host}`;
    const json = { 'content-type': 'application/json', host, origin: self };
    const login = await rawRequest(inst.url, 'POST', '/api/auth/login/', json, JSON.stringify(admin));
    const cookie = String(login.headers['set-cookie']?.[0] ?? '').split(';')[0];
    const folder = (origin) =>
      rawRequest(inst.url, 'POST', '/api/folders/', { ...json, cookie, origin }, JSON.stringify({ name: origin }));
    const otherPort = await folder('http://localhost:1234');
    const sameOrigin = await folder(self);

    const page = await rawRequest(inst.url, 'GET', '/', { host, cookie });
    const csp = String(page.headers['content-security-policy'] ?? '');
    const directives = Object.fromEntries(
      csp
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .filter((d) => d[0])
        .map(([name, ...values]) => [name, values]),
    );
    const imgSrc = directives['img-src'] ?? directives['default-src'] ?? [];
    const overHttps = await rawRequest(inst.url, 'GET', '/', { host, cookie, 'x-forwarded-proto': 'https' });

    const lf = async (route) => {
      const boundary = 'B';
      const body = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename*=UTF-8''a%0Ab.jpg\r\n\r\n`,
        ),
        Buffer.alloc(48_000),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return rawRequest(
        inst.url,
        'POST',
        route,
        { host, origin: self, cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
        body,
      );
    };
    const lfFiles = await lf('/api/images/upload-files/');
    const lfBatch = await lf('/api/images/upload-batch/');
    const figures = {
      signed_in: login.status,
      other_port_origin: otherPort.status,
      same_origin: sameOrigin.status,
      page: page.status,
      csp_unsafe_inline: csp.includes("'unsafe-inline'"),
      csp_img_src: imgSrc.join(' '),
      hsts_over_http: Boolean(page.headers['strict-transport-security']),
      hsts_behind_https_proxy: overHttps.headers['strict-transport-security'] ?? null,
      permissions_policy: Boolean(page.headers['permissions-policy']),
      filename_lf_upload_files: `${lfFiles.status} in ${lfFiles.ms} ms`,
      filename_lf_upload_batch: `${lfBatch.status} in ${lfBatch.ms} ms`,
    };
    const ok =
      login.status === 200 &&
      otherPort.status === 403 &&
      sameOrigin.status === 201 &&
      page.status === 200 &&
      csp !== '' &&
      !figures.csp_unsafe_inline &&
      !imgSrc.includes('http:') &&
      !figures.hsts_over_http &&
      Boolean(figures.hsts_behind_https_proxy) &&
      [lfFiles, lfBatch].every((r) => r.status === 400 && r.ms < 1000);
    return { ok, ...figures };
  } finally {
    await inst.close();
  }
}
