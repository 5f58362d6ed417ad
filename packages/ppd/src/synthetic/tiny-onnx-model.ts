import fs from 'node:fs/promises';
import onnxProto from 'onnx-proto';
import type { OnnxSidecar } from '../models/onnx-sidecar.js';

const { onnx } = onnxProto;

/**
 * A tiny stand-in for the academy's DeepLabV3+ with the same signature: image [1,3,H,W] in, class logits
 * [1,3,H,W] out (background, healthy, discoloured). One 1x1 convolution that separates a blue card, cream
 * flesh and dark lesions by colour, so the whole ONNX path can be tested without the real weights.
 * Needs the onnx-proto devDependency: tests and benchmarks only.
 */
export function tinyOnnxModelBytes(size = 256): Uint8Array {
  const FLOAT = onnx.TensorProto.DataType.FLOAT;
  const valueInfo = (name: string, dims: number[]) => ({
    name,
    type: { tensorType: { elemType: FLOAT, shape: { dim: dims.map((d) => ({ dimValue: d })) } } },
  });
  // inputs are RGB in 0-1 (sidecar mean 0, std 1); rows are classes, columns r, g, b
  const weights = [
    [-10, 0, 10], // background: blue rather than red
    [6, 6, 6], // healthy: light
    [-6, -6, -6], // discoloured: dark
  ];
  const bias = [0, -9, 6];
  const model = onnx.ModelProto.create({
    irVersion: 7,
    producerName: 'cassavascope-tests',
    opsetImport: [{ domain: '', version: 13 }],
    graph: {
      name: 'tiny-segmenter',
      node: [{ opType: 'Conv', name: 'classify', input: ['input', 'W', 'B'], output: ['logits'] }],
      initializer: [
        { name: 'W', dims: [3, 3, 1, 1], dataType: FLOAT, floatData: weights.flat() },
        { name: 'B', dims: [3], dataType: FLOAT, floatData: bias },
      ],
      input: [valueInfo('input', [1, 3, size, size])],
      output: [valueInfo('logits', [1, 3, size, size])],
    },
  });
  return onnx.ModelProto.encode(model).finish();
}

export function tinyOnnxSidecar(size = 256): OnnxSidecar {
  return {
    label: 'Tiny test segmenter',
    input: { width: size, height: size },
    mean: [0, 0, 0],
    std: [1, 1, 1],
    classes: { background: 0, healthy: 1, discoloured: 2 },
    output: 'logits',
  };
}

/** Writes `<path>` and `<path>.json`. */
export async function writeTinyOnnxModel(path: string, size = 256, sidecar: Partial<OnnxSidecar> = {}): Promise<void> {
  await fs.writeFile(path, tinyOnnxModelBytes(size));
  await fs.writeFile(`${path}.json`, JSON.stringify({ ...tinyOnnxSidecar(size), ...sidecar }, null, 2));
}
