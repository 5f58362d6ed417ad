import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '../engine.js';
import { parseAnalysisParams } from '../params.js';
import type { AnalysisParams, AnalysisResult } from '../types.js';

const IMAGE_EXTENSIONS = new Set([
  '.jpg',
  '.jpeg',
  '.png',
  '.webp',
  '.tif',
  '.tiff',
  '.gif',
  '.avif',
  '.heic',
  '.heif',
]);

export const USAGE = `Usage: ppd score <files or folders...> [options]

Scores cassava slice photos for PPD (0-10) and prints one row per image: CSV by default.
Folders are searched recursively for .jpg .jpeg .png .webp .tif .tiff .gif .avif .heic .heif files.

Options:
  --json                    JSON lines instead of CSV
  --out <dir>               also write the visualisations (overview, cut2_N, pred_N as WebP)
  --threshold <0.1-1>       discolouration confidence cut-off (default 0.5)
  --min-size <10-1000>      smallest specimen/lesion kept, in working pixels (default 100)
  --method <post|none>      post-processing on or off (default post)
  --tta                     test-time augmentation (average over flipped copies)
  --morph-kernel-size <odd 1-15>   (default 5)
  --morph-iterations <1-10>        (default 1)
  --overlay-opacity <0.1-0.9>      lesion tint in pred images (default 0.3)
  --model <file.onnx>       use an ONNX model (needs <file.onnx>.json); default: $MODEL_PATH, else the colour engine
  --workers <n>             worker threads (default: every core)

Exit status: 0 when every image was scored, 1 when some could not be (see error_code), 2 on usage errors.`;

class UsageError extends Error {}

function numberOption(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  const v = Number(raw);
  if (!Number.isFinite(v)) throw new UsageError(`--${name} must be a number, got "${raw}"`);
  return v;
}

/** Files in the order given; folders expanded recursively and sorted. */
async function collectFiles(inputs: string[]): Promise<{ file: string; root: string }[]> {
  const out: { file: string; root: string }[] = [];
  const walk = async (dir: string, root: string) => {
    const entries = (await fs.readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
    for (const e of entries) {
      const full = path.join(dir, e.name);
      if (e.isDirectory()) await walk(full, root);
      else if (e.isFile() && IMAGE_EXTENSIONS.has(path.extname(e.name).toLowerCase())) out.push({ file: full, root });
    }
  };
  for (const input of inputs) {
    const stat = await fs.stat(input).catch(() => null);
    if (stat?.isDirectory()) await walk(input, input);
    else out.push({ file: input, root: path.dirname(input) });
  }
  return out;
}

function csvField(v: string): string {
  return /[",\n\r]/.test(v) ? `"${v.replace(/"/g, '""')}"` : v;
}

const CSV_HEADER = 'file,ppd_value,prediction,confidence,sub_ppd_values,cuts,error_code,error_message';

function csvRow(file: string, r: AnalysisResult): string {
  return [
    file,
    r.ppd_value?.toFixed(2) ?? '',
    r.prediction ?? '',
    r.confidence?.toString() ?? '',
    r.sub_ppd_values.map((v) => v.toFixed(2)).join(';'),
    r.cuts.map((c) => `${c.x} ${c.y} ${c.w} ${c.h}`).join(';'),
    r.error_code ?? '',
    r.error_message ?? '',
  ]
    .map(csvField)
    .join(',');
}

function jsonRow(file: string, r: AnalysisResult): string {
  return JSON.stringify({
    file,
    ppd_value: r.ppd_value,
    sub_ppd_values: r.sub_ppd_values,
    cuts: r.cuts,
    prediction: r.prediction,
    confidence: r.confidence,
    error_code: r.error_code,
    error_message: r.error_message,
  });
}

/** Output names keep the path below the given folder, so same-named photos in sub-folders do not collide. */
async function writeVisualisations(outDir: string, file: string, root: string, r: AnalysisResult): Promise<void> {
  const rel = path.relative(root, file) || path.basename(file);
  const base = rel.replace(/\.[^./\\]+$/, '').replace(/[\\/]+/g, '__');
  const writes: [string, Buffer][] = [];
  if (r.images.overview) writes.push([`${base}_overview.webp`, r.images.overview]);
  r.images.cut2.forEach((b, i) => writes.push([`${base}_cut2_${i + 1}.webp`, b]));
  r.images.pred.forEach((b, i) => writes.push([`${base}_pred_${i + 1}.webp`, b]));
  for (const [name, bytes] of writes) {
    const target = path.join(outDir, name);
    const tmp = `${target}.${process.pid}.tmp`;
    await fs.writeFile(tmp, bytes);
    await fs.rename(tmp, target);
  }
}

export interface CliIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  stderrIsTty: boolean;
}

/** `ppd score ...`; returns the exit status. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: 'boolean' },
        out: { type: 'string' },
        threshold: { type: 'string' },
        'min-size': { type: 'string' },
        method: { type: 'string' },
        tta: { type: 'boolean' },
        'morph-kernel-size': { type: 'string' },
        'morph-iterations': { type: 'string' },
        'overlay-opacity': { type: 'string' },
        model: { type: 'string' },
        workers: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    io.stderr(`ppd: ${err instanceof Error ? err.message : String(err)}\n\n${USAGE}\n`);
    return 2;
  }
  if (values.help) {
    io.stdout(`${USAGE}\n`);
    return 0;
  }
  const [command, ...inputs] = positionals;
  if (command !== 'score' || inputs.length === 0) {
    io.stderr(`${USAGE}\n`);
    return 2;
  }

  let params: AnalysisParams;
  let workers: number | undefined;
  try {
    const raw = {
      threshold: numberOption(values.threshold as string | undefined, 'threshold'),
      min_size: numberOption(values['min-size'] as string | undefined, 'min-size'),
      method: values.method,
      use_tta: values.tta === true ? true : undefined,
      morph_kernel_size: numberOption(values['morph-kernel-size'] as string | undefined, 'morph-kernel-size'),
      morph_iterations: numberOption(values['morph-iterations'] as string | undefined, 'morph-iterations'),
      overlay_opacity: numberOption(values['overlay-opacity'] as string | undefined, 'overlay-opacity'),
    };
    const checked = parseAnalysisParams(Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== undefined)));
    if (!checked.ok) throw new UsageError(checked.message);
    params = checked.params;
    workers = numberOption(values.workers as string | undefined, 'workers');
    if (workers !== undefined && (!Number.isInteger(workers) || workers < 1))
      throw new UsageError('--workers must be a whole number >= 1');
  } catch (err) {
    if (!(err instanceof UsageError)) throw err;
    io.stderr(`ppd: ${err.message}\n`);
    return 2;
  }

  const files = await collectFiles(inputs);
  const outDir = values.out as string | undefined;
  if (outDir) await fs.mkdir(outDir, { recursive: true });
  const modelPath = (values.model as string | undefined) || process.env.MODEL_PATH || undefined;
  let engine;
  try {
    engine = await createEngine({ modelPath, workers });
  } catch (err) {
    io.stderr(`ppd: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  io.stderr(`ppd: ${files.length} image(s), engine "${engine.info.label}"\n`);

  const json = values.json === true;
  if (!json) io.stdout(`${CSV_HEADER}\n`);
  let failed = 0;
  let done = 0;
  const started = performance.now();
  const progress = (last = false) => {
    if (io.stderrIsTty) io.stderr(`\rppd: ${done}/${files.length}${last ? '\n' : ''}`);
    else if (last || done % 25 === 0) io.stderr(`ppd: ${done}/${files.length}\n`);
  };
  // Keep a window of jobs in flight (the pool queues them) and print in input order.
  const window = Math.max(2, (workers ?? os.availableParallelism()) * 2);
  const pending = new Map<number, Promise<AnalysisResult>>();
  let next = 0;
  const launch = () => {
    while (next < files.length && pending.size < window) {
      const i = next++;
      pending.set(i, engine.analyse(files[i]!.file, params));
    }
  };
  try {
    launch();
    for (let i = 0; i < files.length; i++) {
      const r = await pending.get(i)!;
      pending.delete(i);
      launch();
      const { file, root } = files[i]!;
      if (r.error_code) failed++;
      io.stdout(`${json ? jsonRow(file, r) : csvRow(file, r)}\n`);
      if (outDir && !r.error_code) await writeVisualisations(outDir, file, root, r);
      done++;
      progress();
    }
  } finally {
    await engine.close();
  }
  progress(true);
  const secs = (performance.now() - started) / 1000;
  io.stderr(`ppd: done in ${secs.toFixed(1)} s${failed ? `, ${failed} image(s) not scored` : ''}\n`);
  return failed > 0 ? 1 : 0;
}
