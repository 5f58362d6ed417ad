import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runEvaluate } from '../src/cli/evaluate-cli.js';
import { renderSceneJpeg } from '../src/synthetic/slice-scene.js';

/** `ppd evaluate` on a small folder laid out as ../shared/real-photos: one slice to score, one photo to refuse. */
let dir: string;

async function evaluate(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runEvaluate(args, {
    stdout: (s) => void (stdout += s),
    stderr: (s) => void (stderr += s),
    stderrIsTty: false,
  });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ppd-evaluate-'));
  await fs.mkdir(path.join(dir, 'roots'));
  await fs.mkdir(path.join(dir, 'field-leaves'));
  const { jpeg, scene } = await renderSceneJpeg({ width: 800, height: 600, seed: 31, slices: 1, background: 'dark' });
  await fs.writeFile(path.join(dir, 'roots', 'slice.jpg'), jpeg);
  // a plain grey card: nothing to score
  const plain = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#808080' } })
    .jpeg()
    .toBuffer();
  await fs.writeFile(path.join(dir, 'field-leaves', 'plain.jpg'), plain);
  const truth = { 'slice.jpg': { specimens: 1, kind: 'root_slice', labelled_ppd: scene.slices[0]!.ppd } };
  await fs.writeFile(path.join(dir, 'truth.json'), JSON.stringify(truth));
});
afterAll(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('ppd evaluate', () => {
  it('reports each set on its own line and in a summary table', async () => {
    const r = await evaluate([dir, '--workers', '1']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^roots \| roots\/slice\.jpg \| score \| scored 1 \| 1\/1 \(1\)/m);
    expect(r.stdout).toMatch(
      /^refusals \| field-leaves\/plain\.jpg \| refuse \| (no_specimen_found|not_a_specimen_photo) /m,
    );
    expect(r.stdout).toContain('| set | photos | found | extra | wrongly refused | refused | readings | MAE |');
    expect(r.stdout).toMatch(/^\| roots \| 1 \| 1\/1 \(100\.0 %\) \| 0 \| 0 \| - \| 1 \| \d\.\d\d \|/m);
    expect(r.stdout).toMatch(/^\| refusals \| 1 \| - \| 0 \| 0 \| 1\/1 \| 0 \| - \|/m);
  });

  it('prints the sets and every outcome as JSON, and runs only the sets asked for', async () => {
    const r = await evaluate([dir, '--workers', '1', '--json', '--sets', 'roots']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as {
      sets: { set: string; summary: { foundShare: number } }[];
      outcomes: unknown[];
    };
    expect(out.sets.map((s) => s.set)).toEqual(['roots']);
    expect(out.sets[0]!.summary.foundShare).toBe(1);
    expect(out.outcomes).toHaveLength(1);
  });

  it('refuses an unknown set with exit status 2 and names the sets', async () => {
    const r = await evaluate([dir, '--sets', 'roots,nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('unknown set(s) nope');
    expect(r.stderr).toContain('cbsd-heldout');
  });
});
