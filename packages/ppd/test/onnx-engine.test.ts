import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { writeTinyOnnxModel } from '../src/synthetic/tiny-onnx-model.js';
import { drawSlicePng } from './helpers/drawn-slice.js';

let dir: string;
let modelPath: string;
let engine: Engine;

beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'ppd-onnx-'));
  modelPath = path.join(dir, 'tiny.onnx');
  await writeTinyOnnxModel(modelPath, 256);
  engine = await createEngine({ modelPath, workers: 1 });
});
afterAll(async () => {
  await engine?.close();
  await fs.rm(dir, { recursive: true, force: true });
});

describe('ONNX engine', () => {
  it('reports the sidecar label and kind onnx', () => {
    expect(engine.info).toEqual({ name: 'onnx', label: 'Tiny test segmenter', kind: 'onnx' });
  });

  it('runs the same pipeline on the network probabilities: a blob of 1/9 of the slice is about 1.1 PPD', async () => {
    // disc radius 240 px; blob radius 80 px: (80/240)^2 = 0.111 of the slice
    const png = await drawSlicePng({ size: 600, blobs: [{ x: 300, y: 300, r: 80, soft: 1 }] });
    const r = await engine.analyse(png);
    expect(r.error_code).toBeNull();
    expect(r.cuts).toHaveLength(1);
    expect(r.cuts[0]!.x).toBeGreaterThan(40);
    expect(r.cuts[0]!.x).toBeLessThan(70);
    expect(r.ppd_value!).toBeGreaterThan(0.9);
    expect(r.ppd_value!).toBeLessThan(1.3);
    expect(r.images.pred).toHaveLength(1);
    expect(r.images.overview).not.toBeNull();
    const tta = await engine.analyse(png, { use_tta: true });
    expect(Math.abs(tta.ppd_value! - r.ppd_value!)).toBeLessThan(0.05);
    const strict = await engine.analyse(png, { threshold: 0.99 });
    expect(strict.ppd_value!).toBeLessThanOrEqual(r.ppd_value!);
  });

  it('a blank card has no specimen and garbage is decode_failed', async () => {
    const blank = await drawSlicePng({ size: 10 });
    expect(['no_specimen_found', null]).toContain((await engine.analyse(blank)).error_code);
    expect((await engine.analyse(Buffer.from('nope'))).error_code).toBe('decode_failed');
  });

  it('refuses to start with a missing, corrupt or mismatched model, saying why', async () => {
    await expect(createEngine({ modelPath: path.join(dir, 'absent.onnx') })).rejects.toThrow(
      /sidecar .*absent\.onnx\.json is missing/,
    );
    const corrupt = path.join(dir, 'corrupt.onnx');
    await fs.writeFile(corrupt, 'this is not a protobuf');
    await fs.copyFile(`${modelPath}.json`, `${corrupt}.json`);
    await expect(createEngine({ modelPath: corrupt })).rejects.toThrow(/corrupt\.onnx cannot be loaded/);
    const noFile = path.join(dir, 'nofile.onnx');
    await fs.copyFile(`${modelPath}.json`, `${noFile}.json`);
    await expect(createEngine({ modelPath: noFile })).rejects.toThrow(/nofile\.onnx cannot be read/);
    const wrongClasses = path.join(dir, 'wrong.onnx');
    await writeTinyOnnxModel(wrongClasses, 64, { classes: { background: 0, healthy: 1, discoloured: 7 } });
    await expect(createEngine({ modelPath: wrongClasses })).rejects.toThrow(/does not match its sidecar/);
    const badSidecar = path.join(dir, 'bad.onnx');
    await fs.copyFile(modelPath, badSidecar);
    await fs.writeFile(`${badSidecar}.json`, JSON.stringify({ input: { width: 0 } }));
    await expect(createEngine({ modelPath: badSidecar })).rejects.toThrow(/sidecar .* is invalid: input/);
  });
});
