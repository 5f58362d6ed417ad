import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { readCbsdMask } from '../learned/cbsd-mask.js';
import type { LabelledPhoto, LabelImage } from '../learned/lab-model-api.js';
import { readLabelPng } from '../learned/label-image.js';
import { trainLabModel, TrainingError } from '../learned/train-lab-model.js';
import type { CliIo } from './score-cli.js';

export const TRAIN_USAGE = `Usage: ppd train <folders or photos...> --out <model.json> [options]

Trains a lab model (docs/model.md, "Lab models and the learned classifier") from labelled photos and writes
its portable file. Each photo NAME.jpg (or .png, .webp, .tif) needs a label image beside it:
  NAME.labels.png   8-bit values: 0 unlabelled, 1 background, 2 healthy, 3 discoloured, 4 not scored
  NAME_mask.png     the CBSD sets' colours: magenta 255,0,255 discoloured, grey 40,40,40 not a slice,
                    any other colour healthy slice
Photos without labels are skipped (and named). Prints the validation metrics beside the default engine's.

Options:
  --out <file>     where to write the model (required)
  --name <text>    the model's name (default: the output file's name)
  --trees <n>      trees in the forest (default 24; fewer train faster)
  --json           print the metrics and held-out readings as JSON`;

const OPTIONS = {
  out: { type: 'string' },
  name: { type: 'string' },
  trees: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

const PHOTO = /\.(jpe?g|png|webp|tiff?)$/i;
const LABEL_FILE = /(\.labels\.png|_mask\.png)$/i;

async function photoFiles(inputs: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const input of inputs) {
    const stat = await fs.stat(input);
    if (stat.isDirectory()) {
      const names = (await fs.readdir(input)).sort();
      for (const n of names) if (PHOTO.test(n) && !LABEL_FILE.test(n)) out.push(path.join(input, n));
    } else out.push(input);
  }
  return out;
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (s) => s.isFile(),
    () => false,
  );
}

/** The photo's labels from NAME.labels.png (values) or NAME_mask.png (CBSD colours); null when it has none. */
async function labelsOf(photo: string): Promise<LabelImage | string | null> {
  const stem = photo.replace(/\.[^./\\]+$/, '');
  if (await exists(`${stem}.labels.png`)) {
    const r = await readLabelPng(await fs.readFile(`${stem}.labels.png`));
    return r.ok ? r.labels : `${stem}.labels.png: ${r.problem}`;
  }
  if (await exists(`${stem}_mask.png`)) return readCbsdMask(`${stem}_mask.png`);
  return null;
}

/** `ppd train ...`; returns the exit status (1 when training refused the labels, 2 on usage errors). */
export async function runTrain(argv: string[], io: CliIo): Promise<number> {
  let values: ReturnType<
    typeof parseArgs<{ args: string[]; allowPositionals: true; options: typeof OPTIONS }>
  >['values'];
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, allowPositionals: true, options: OPTIONS }));
  } catch (err) {
    io.stderr(`ppd: ${err instanceof Error ? err.message : String(err)}\n\n${TRAIN_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    io.stdout(`${TRAIN_USAGE}\n`);
    return 0;
  }
  const trees = values.trees === undefined ? undefined : Number(values.trees);
  if (!values.out || positionals.length === 0 || (trees !== undefined && !(Number.isInteger(trees) && trees > 0))) {
    io.stderr(`${TRAIN_USAGE}\n`);
    return 2;
  }
  let files: string[];
  try {
    files = await photoFiles(positionals);
  } catch (err) {
    io.stderr(`ppd: ${err instanceof Error ? err.message : String(err)}\n`);
    return 2;
  }
  const photos: LabelledPhoto[] = [];
  for (const file of files) {
    const labels = await labelsOf(file);
    if (typeof labels === 'string') {
      io.stderr(`ppd: ${labels}\n`);
      return 2;
    }
    if (!labels) {
      io.stderr(`ppd: skipped ${file} (no NAME.labels.png or NAME_mask.png beside it)\n`);
      continue;
    }
    photos.push({ id: path.basename(file), image: await fs.readFile(file), labels });
  }
  const name = values.name ?? path.basename(values.out).replace(/\.json(\.gz)?$/i, '');
  io.stderr(`ppd: training "${name}" on ${photos.length} labelled photo(s)\n`);
  let last = -10;
  try {
    const trained = await trainLabModel(photos, {
      name,
      ...(trees !== undefined ? { trees } : {}),
      onProgress: (p) => {
        if (io.stderrIsTty || p - last >= 10 || p === 100) io.stderr(`ppd: ${p} %\n`);
        if (p - last >= 10) last = p;
      },
    });
    await fs.writeFile(values.out, trained.file);
    const m = trained.metrics;
    const heldout = trained.heldout.map(({ id, labels_ppd, model_ppd, baseline_ppd }) => ({
      id,
      labels_ppd,
      model_ppd,
      baseline_ppd,
    }));
    if (values.json) {
      io.stdout(`${JSON.stringify({ file: values.out, bytes: trained.file.length, metrics: m, heldout }, null, 1)}\n`);
    } else {
      io.stdout(`wrote ${values.out} (${Math.round(trained.file.length / 1024)} kB)\n`);
      if (m) {
        io.stdout(
          `on photos it did not train on: pixel accuracy ${m.pixel_accuracy.toFixed(3)}, lesion IoU ${m.lesion_iou.toFixed(3)}, ` +
            `PPD MAE ${m.ppd_mae.toFixed(2)} (default engine ${m.baseline_ppd_mae.toFixed(2)})` +
            `${m.ppd_mae > m.baseline_ppd_mae ? ' - WORSE than the default engine on these photos' : ''}\n`,
        );
      }
      for (const h of heldout)
        io.stdout(
          `  ${h.id}: labels ${h.labels_ppd.toFixed(2)}, model ${h.model_ppd.toFixed(2)}, default ${h.baseline_ppd.toFixed(2)}\n`,
        );
    }
    return 0;
  } catch (err) {
    if (err instanceof TrainingError) {
      io.stderr(`ppd: ${err.code}: ${err.message}\n`);
      return 1;
    }
    throw err;
  }
}
