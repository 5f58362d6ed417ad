import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTrain } from '../src/cli/train-cli.js';
import { readLabModelFile } from '../src/index.js';
import { CBSD_LABELLED, cbsdIds, haveCbsdLabelled } from './helpers/cbsd-labelled.js';

function capture() {
  const out = { stdout: '', stderr: '' };
  return {
    out,
    io: {
      stdout: (s: string) => void (out.stdout += s),
      stderr: (s: string) => void (out.stderr += s),
      stderrIsTty: false,
    },
  };
}

describe.skipIf(!haveCbsdLabelled)('ppd train', () => {
  let dir: string;
  beforeAll(async () => {
    // a scratch folder outside the repository: three real photos with their CBSD masks, and one unlabelled
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ppd-train-'));
    const ids = cbsdIds().slice(0, 3);
    for (const id of ids) {
      await fs.copyFile(path.join(CBSD_LABELLED, `${id}.png`), path.join(dir, `${id}.png`));
      await fs.copyFile(path.join(CBSD_LABELLED, `${id}_mask.png`), path.join(dir, `${id}_mask.png`));
    }
    await fs.copyFile(path.join(CBSD_LABELLED, `${cbsdIds()[5]}.png`), path.join(dir, 'unlabelled.png'));
  });
  afterAll(async () => {
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('trains from a folder of photos and CBSD masks, writes the model and prints its metrics', async () => {
    const { io, out } = capture();
    const file = path.join(dir, 'lab.json');
    const status = await runTrain([dir, '--out', file, '--trees', '3', '--json'], io);
    expect(status).toBe(0);
    expect(out.stderr).toMatch(/skipped .*unlabelled\.png/);
    const report = JSON.parse(out.stdout);
    expect(report.heldout).toHaveLength(3);
    expect(report.metrics.ppd_mae).toBeGreaterThanOrEqual(0);
    const model = readLabModelFile(await fs.readFile(file));
    expect(model.name).toBe('lab');
    expect(model.forest.roots.length).toBe(3);
  }, 120_000);

  it('says how to use it, and refuses a photo set it cannot learn from', async () => {
    const usage = capture();
    expect(await runTrain([dir], usage.io)).toBe(2);
    expect(usage.out.stderr).toMatch(/--out <file>/);
    const one = capture();
    const single = await fs.mkdtemp(path.join(os.tmpdir(), 'ppd-train-one-'));
    const id = cbsdIds()[0]!;
    await fs.copyFile(path.join(CBSD_LABELLED, `${id}.png`), path.join(single, `${id}.png`));
    await fs.copyFile(path.join(CBSD_LABELLED, `${id}_mask.png`), path.join(single, `${id}_mask.png`));
    expect(await runTrain([single, '--out', path.join(single, 'm.json')], one.io)).toBe(1);
    expect(one.out.stderr).toMatch(/not_enough_labels/);
    await fs.rm(single, { recursive: true, force: true });
  });
});
