import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderSceneJpeg } from '../src/synthetic/slice-scene.js';

const bin = fileURLToPath(new URL('../bin/ppd.mjs', import.meta.url));
let dir: string;

function runPpd(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [bin, ...args], { cwd: dir });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code: code ?? -1, stdout, stderr }));
  });
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ppd-cli-'));
  await fs.mkdir(path.join(dir, 'photos', 'plot-2'), { recursive: true });
  const a = await renderSceneJpeg({ width: 800, height: 600, seed: 501, slices: 2, background: 'light' });
  const b = await renderSceneJpeg({ width: 800, height: 600, seed: 502, slices: 1, background: 'blue' });
  await fs.writeFile(path.join(dir, 'photos', 'a.jpg'), a.jpeg);
  await fs.writeFile(path.join(dir, 'photos', 'plot-2', 'a.jpg'), b.jpeg);
  await fs.writeFile(path.join(dir, 'photos', 'plot-2', 'broken.png'), 'not a png');
  await fs.writeFile(path.join(dir, 'photos', 'notes.txt'), 'ignored: not an image');
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('ppd score', () => {
  it('prints JSON lines for a folder, recursively, and writes visualisations', async () => {
    const r = await runPpd(['score', 'photos', '--json', '--out', 'vis', '--workers', '2']);
    expect(r.code).toBe(1); // one image could not be scored
    const rows = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(rows.map((x) => path.relative('photos', x.file))).toEqual([
      'a.jpg',
      path.join('plot-2', 'a.jpg'),
      path.join('plot-2', 'broken.png'),
    ]);
    expect(rows[0].sub_ppd_values).toHaveLength(2);
    expect(rows[0].cuts).toHaveLength(2);
    expect(Object.keys(rows[0].cuts[0]).sort()).toEqual(['h', 'w', 'x', 'y']);
    expect(rows[0].ppd_value).toBeCloseTo((rows[0].sub_ppd_values[0] + rows[0].sub_ppd_values[1]) / 2, 1);
    expect(rows[0].confidence).toBeGreaterThan(0);
    expect(rows[1].error_code).toBeNull();
    expect(rows[2].error_code).toBe('decode_failed');
    expect(r.stderr).toContain('3/3');
    const written = (await fs.readdir(path.join(dir, 'vis'))).sort();
    expect(written).toEqual(
      [
        'a_cut2_1',
        'a_cut2_2',
        'a_overview',
        'a_pred_1',
        'a_pred_2',
        'plot-2__a_cut2_1',
        'plot-2__a_overview',
        'plot-2__a_pred_1',
      ].map((n) => `${n}.webp`),
    );
  });

  it('prints CSV by default and applies parameter flags', async () => {
    const base = await runPpd(['score', 'photos/a.jpg']);
    expect(base.code).toBe(0);
    const [header, row] = base.stdout.trim().split('\n');
    expect(header).toBe('file,ppd_value,prediction,confidence,sub_ppd_values,cuts,error_code,error_message');
    const cols = row!.split(',');
    expect(cols[0]).toBe('photos/a.jpg');
    expect(cols[4]!.split(';')).toHaveLength(2);
    expect(cols[5]!.split(';')[0]!.split(' ')).toHaveLength(4);
    const strict = await runPpd(['score', 'photos/a.jpg', '--threshold', '0.95']);
    expect(Number(strict.stdout.trim().split('\n')[1]!.split(',')[1])).toBeLessThan(Number(cols[1]));
  });

  it('rejects bad flags with exit status 2 and a reason', async () => {
    const r = await runPpd(['score', 'photos', '--threshold', '5']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('threshold');
    const none = await runPpd(['score']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('Usage: ppd score');
  });
});
