import fs from 'node:fs/promises';
import { z } from 'zod';

/**
 * `<model>.json` beside the ONNX file: how to feed the network and read its classes.
 * See docs/model.md for the export recipe that writes it.
 */
export const onnxSidecarSchema = z.object({
  label: z.string().min(1).default('DeepLabV3+ ResNet-101'),
  input: z.object({
    width: z.number().int().min(8).max(4096),
    height: z.number().int().min(8).max(4096),
  }),
  /** per RGB channel, applied to values scaled to 0-1 */
  mean: z.tuple([z.number(), z.number(), z.number()]).default([0.485, 0.456, 0.406]),
  std: z.tuple([z.number().positive(), z.number().positive(), z.number().positive()]).default([0.229, 0.224, 0.225]),
  classes: z
    .object({
      background: z.number().int().min(0),
      healthy: z.number().int().min(0),
      discoloured: z.number().int().min(0),
    })
    .refine((c) => new Set([c.background, c.healthy, c.discoloured]).size === 3, 'class indices must differ'),
  /** "logits" (softmax applied here) or "probabilities" */
  output: z.enum(['logits', 'probabilities']).default('logits'),
});

export type OnnxSidecar = z.infer<typeof onnxSidecarSchema>;

export function sidecarPathOf(modelPath: string): string {
  return `${modelPath}.json`;
}

export async function readSidecar(modelPath: string): Promise<OnnxSidecar> {
  const file = sidecarPathOf(modelPath);
  let text: string;
  try {
    text = await fs.readFile(file, 'utf8');
  } catch {
    throw new Error(
      `ONNX model sidecar ${file} is missing: it must give input size, mean/std and class indices (see docs/model.md)`,
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`ONNX model sidecar ${file} is not valid JSON`);
  }
  const parsed = onnxSidecarSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(
      `ONNX model sidecar ${file} is invalid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`,
    );
  }
  return parsed.data;
}
