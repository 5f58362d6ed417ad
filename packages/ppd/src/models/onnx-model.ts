import fs from 'node:fs/promises';
import * as ort from 'onnxruntime-node';
import sharp from 'sharp';
import type { RgbImage } from '../imaging/raster.js';
import { readSidecar, type OnnxSidecar } from './onnx-sidecar.js';
import type { SegmentationModel } from './segmentation-model.js';

/** Per-class probability planes at the network's output size. */
interface ClassMaps {
  width: number;
  height: number;
  background: Float32Array;
  healthy: Float32Array;
  discoloured: Float32Array;
}

/** Bilinear resampling of one plane, pixel centres aligned. */
function resizePlane(src: Float32Array, sw: number, sh: number, dw: number, dh: number): Float32Array {
  const out = new Float32Array(dw * dh);
  const fx = sw / dw;
  const fy = sh / dh;
  for (let y = 0; y < dh; y++) {
    const syf = Math.min(sh - 1, Math.max(0, (y + 0.5) * fy - 0.5));
    const y0 = Math.floor(syf);
    const y1 = Math.min(sh - 1, y0 + 1);
    const wy = syf - y0;
    for (let x = 0; x < dw; x++) {
      const sxf = Math.min(sw - 1, Math.max(0, (x + 0.5) * fx - 0.5));
      const x0 = Math.floor(sxf);
      const x1 = Math.min(sw - 1, x0 + 1);
      const wx = sxf - x0;
      const top = src[y0 * sw + x0]! * (1 - wx) + src[y0 * sw + x1]! * wx;
      const bottom = src[y1 * sw + x0]! * (1 - wx) + src[y1 * sw + x1]! * wx;
      out[y * dw + x] = top * (1 - wy) + bottom * wy;
    }
  }
  return out;
}

export interface OnnxLoadOptions {
  /** intra-op threads; 1 inside a pool worker, where the pool provides the parallelism */
  threads?: number;
}

/**
 * Loads `modelPath` (+ `<model>.json`) and checks its signature: one image input [1,3,H,W], one output
 * [1,C,h,w] with C covering the sidecar's class indices. Rejects with a clear message otherwise.
 */
export async function loadOnnxModel(modelPath: string, options: OnnxLoadOptions = {}): Promise<SegmentationModel> {
  const sidecar = await readSidecar(modelPath);
  let bytes: Buffer;
  try {
    bytes = await fs.readFile(modelPath);
  } catch {
    throw new Error(`ONNX model ${modelPath} cannot be read`);
  }
  let session: ort.InferenceSession;
  try {
    session = await ort.InferenceSession.create(bytes, {
      intraOpNumThreads: options.threads ?? 0,
      interOpNumThreads: 1,
      graphOptimizationLevel: 'all',
    });
  } catch (err) {
    throw new Error(`ONNX model ${modelPath} cannot be loaded: ${err instanceof Error ? err.message : String(err)}`, {
      cause: err,
    });
  }
  if (session.inputNames.length < 1 || session.outputNames.length < 1) {
    throw new Error(`ONNX model ${modelPath} must have an image input and a class-score output`);
  }
  const model = new OnnxModel(session, sidecar);
  // One run on a blank image proves the signature matches the sidecar before any real image is queued.
  try {
    await model.classMaps({ width: 8, height: 8, data: new Uint8Array(8 * 8 * 3) });
  } catch (err) {
    await session.release();
    throw new Error(
      `ONNX model ${modelPath} does not match its sidecar: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
  return model;
}

class OnnxModel implements SegmentationModel {
  readonly info;

  constructor(
    private readonly session: ort.InferenceSession,
    private readonly sidecar: OnnxSidecar,
  ) {
    this.info = { name: 'onnx', label: sidecar.label, kind: 'onnx' as const };
  }

  /** Resize to the network's input, normalise, run, softmax: one probability plane per class. */
  async classMaps(image: RgbImage): Promise<ClassMaps> {
    const { width: W, height: H } = this.sidecar.input;
    const resized = await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
      .resize(W, H, { fit: 'fill' })
      .raw()
      .toBuffer();
    const plane = W * H;
    const input = new Float32Array(3 * plane);
    const { mean, std } = this.sidecar;
    for (let i = 0; i < plane; i++) {
      for (let c = 0; c < 3; c++) input[c * plane + i] = (resized[i * 3 + c]! / 255 - mean[c]!) / std[c]!;
    }
    const feeds = { [this.session.inputNames[0]!]: new ort.Tensor('float32', input, [1, 3, H, W]) };
    const outputs = await this.session.run(feeds);
    const out = outputs[this.session.outputNames[0]!]!;
    const dims = out.dims;
    if (dims.length !== 4 || dims[0] !== 1) throw new Error(`output must be [1, C, h, w], got [${dims.join(', ')}]`);
    const [, C, h, w] = dims as [number, number, number, number];
    const { background, healthy, discoloured } = this.sidecar.classes;
    if (Math.max(background, healthy, discoloured) >= C)
      throw new Error(`output has ${C} classes; the sidecar names index ${Math.max(background, healthy, discoloured)}`);
    const data = out.data as Float32Array;
    const n = h * w;
    const bg = new Float32Array(n);
    const he = new Float32Array(n);
    const di = new Float32Array(n);
    const logits = this.sidecar.output === 'logits';
    for (let i = 0; i < n; i++) {
      let max = -Infinity;
      if (logits) for (let c = 0; c < C; c++) max = Math.max(max, data[c * n + i]!);
      let sum = 0;
      for (let c = 0; c < C; c++) sum += logits ? Math.exp(data[c * n + i]! - max) : data[c * n + i]!;
      const p = (c: number) => (logits ? Math.exp(data[c * n + i]! - max) : data[c * n + i]!) / (sum || 1);
      bg[i] = p(background);
      he[i] = p(healthy);
      di[i] = p(discoloured);
    }
    for (const t of Object.values(outputs)) t.dispose?.();
    return { width: w, height: h, background: bg, healthy: he, discoloured: di };
  }

  async specimenProbability(image: RgbImage): Promise<Float32Array> {
    const m = await this.classMaps(image);
    const p = resizePlane(m.background, m.width, m.height, image.width, image.height);
    for (let i = 0; i < p.length; i++) p[i] = 1 - p[i]!;
    return p;
  }

  /** Runs the network on the cut itself (the "second cut"), so lesions are seen at the cut's resolution. */
  async lesionProbability(cut: RgbImage, mask: Uint8Array): Promise<Float32Array> {
    const m = await this.classMaps(cut);
    const share = new Float32Array(m.width * m.height);
    for (let i = 0; i < share.length; i++) {
      const tissue = m.healthy[i]! + m.discoloured[i]!;
      share[i] = tissue > 1e-6 ? m.discoloured[i]! / tissue : 0;
    }
    const p = resizePlane(share, m.width, m.height, cut.width, cut.height);
    for (let i = 0; i < p.length; i++) if (!mask[i]) p[i] = 0;
    return p;
  }

  async close(): Promise<void> {
    await this.session.release();
  }
}
