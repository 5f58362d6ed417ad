import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { createEngine } from '../engine.js';
import { readLabModelFile } from '../learned/lab-model-file.js';
import { contactSheet } from '../evaluate/contact-sheet.js';
import { readLabelledFolder } from '../evaluate/labelled-folder.js';
import { isRealPhotosFolder, readRealSets, SET_NAMES, type RealSetName, type SetPhoto } from '../evaluate/real-sets.js';
import { barsText, photoRows, summaryLine, summaryTable } from '../evaluate/report.js';
import { evaluatePhotos, summariseSets } from '../evaluate/run-sets.js';
import type { AnalysisResult, EngineOptions } from '../types.js';
import type { CliIo } from './score-cli.js';

export const EVALUATE_USAGE = `Usage: ppd evaluate <labelled folder> [options]

Scores every photo of a labelled folder and compares with the labels, set by set: specimens found (box IoU
>= 0.5; whole: >= 0.8), extra specimens, wrongly refused photos, refusals, MAE, bias, r and band agreement of
the readings, and how well confidence separates right readings from wrong ones (ROC AUC); a summary table of
the sets at the end, with the bars each set must meet (src/evaluate/set-bars.ts) met or missed.

A folder laid out as ../shared/real-photos (truth.json and roots/ at its top) is judged as five sets:
  roots         the 12 labelled slice crops and the single-slice photos of roots/
  tray          the tray of 15 slices (outlines and by-eye scores per slice)
  cbsd-heldout  the held-out crops of cbsd-labelled/ (src/evaluate/cbsd-labelled-split.ts)
  leaves        the detached leaves of leaves/ (the photo's reading against the README's by-eye values)
  refusals      field photos and leaves on the plant, and the basket of roots: each must be refused
Any other folder (truth.json at its top) is one set, "all".

Options:
  --sets <names>      comma-separated sets to run (real-photos layout; default: all five)
  --refuse <dirs>     other folders: sub-folder names whose unlabelled photos must be refused (e.g. field-leaves)
  --holdout <names>   other folders: file names kept out of tuning, reported as a set of their own
  --out <dir>         write every overview and prediction image and a contact sheet (contact-sheet.png)
  --json              print the per-photo outcomes and the per-set summaries as JSON instead of tables
  --model <file>      score with a lab model (model.json from \`ppd train\` or the app) or an ONNX model (.onnx)
  --workers <n>       worker threads (default: every core)`;

/** The options; one entry per flag (add a flag here and read it below). */
const OPTIONS = {
  sets: { type: 'string' },
  refuse: { type: 'string' },
  holdout: { type: 'string' },
  out: { type: 'string' },
  json: { type: 'boolean' },
  model: { type: 'string' },
  workers: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const satisfies ParseArgsConfig['options'];

const parse = (args: string[]) => parseArgs({ args, allowPositionals: true, options: OPTIONS });
type Values = ReturnType<typeof parse>['values'];

const list = (v: string | undefined) =>
  (v ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/** What the engine is started with, from the flags. */
function engineOptions(values: Values): EngineOptions {
  const workers = values.workers ? Number(values.workers) : undefined;
  const onnx = values.model && !isLabModelPath(values.model) ? values.model : undefined;
  return { modelPath: onnx || process.env.MODEL_PATH || undefined, workers };
}

/** A lab model file (JSON, maybe gzipped) rather than an ONNX model. */
function isLabModelPath(file: string): boolean {
  return /\.json(\.gz)?$/i.test(file);
}

/** The photos to judge, each with its set; a usage error as a string. */
async function choosePhotos(folder: string, values: Values): Promise<SetPhoto[] | string> {
  if (await isRealPhotosFolder(folder)) {
    const names = list(values.sets);
    const unknown = names.filter((n) => !(SET_NAMES as readonly string[]).includes(n));
    if (unknown.length) return `unknown set(s) ${unknown.join(', ')}: the sets are ${SET_NAMES.join(', ')}`;
    return readRealSets(folder, names.length ? (names as RealSetName[]) : SET_NAMES);
  }
  if (values.sets) return `--sets needs a folder laid out as ../shared/real-photos (truth.json and roots/)`;
  const holdout = new Set(list(values.holdout));
  const photos = await readLabelledFolder(folder, list(values.refuse));
  return photos.map((p) => ({
    ...p,
    set: holdout.size ? (holdout.has(path.basename(p.name)) ? 'holdout' : 'tuning') : 'all',
  }));
}

/** `ppd evaluate ...`; returns the exit status (0 once it ran: it measures, the tests judge). */
export async function runEvaluate(argv: string[], io: CliIo): Promise<number> {
  let values: Values;
  let positionals: string[];
  try {
    ({ values, positionals } = parse(argv));
  } catch (err) {
    io.stderr(`ppd: ${err instanceof Error ? err.message : String(err)}\n\n${EVALUATE_USAGE}\n`);
    return 2;
  }
  if (values.help) {
    io.stdout(`${EVALUATE_USAGE}\n`);
    return 0;
  }
  const [folder] = positionals;
  if (!folder || positionals.length !== 1) {
    io.stderr(`${EVALUATE_USAGE}\n`);
    return 2;
  }
  const photos = await choosePhotos(folder, values);
  if (typeof photos === 'string') {
    io.stderr(`ppd: ${photos}\n`);
    return 2;
  }
  let labModel: { id: string; file: Uint8Array } | undefined;
  if (values.model && isLabModelPath(values.model)) {
    try {
      const file = await fs.readFile(values.model);
      const model = readLabModelFile(file);
      labModel = { id: values.model, file };
      io.stderr(`ppd: lab model "${model.name}" (${model.training.image_count} labelled photo(s))\n`);
    } catch (err) {
      io.stderr(`ppd: ${values.model}: ${err instanceof Error ? err.message : String(err)}\n`);
      return 2;
    }
  }
  const engine = await createEngine(engineOptions(values));
  const outDir = values.out;
  if (outDir) await fs.mkdir(outDir, { recursive: true });
  io.stderr(`ppd: evaluating ${photos.length} photo(s) with "${engine.info.label}"\n`);
  const sheet = new Map<SetPhoto, { image: Buffer | null; caption: string }>();
  const keep = async (p: SetPhoto, r: AnalysisResult) => {
    const verdict = r.error_code ?? `${r.specimens.length} specimen(s), PPD ${r.ppd_value?.toFixed(2) ?? '-'}`;
    sheet.set(p, {
      image: outDir ? r.images.overview : null,
      caption: `${p.set} ${path.basename(p.name)}: ${verdict}`,
    });
    if (!outDir) return;
    const base = p.name.replace(/\.[^./\\]+$/, '').replace(/[\\/]+/g, '__');
    if (r.images.overview) await fs.writeFile(path.join(outDir, `${base}_overview.webp`), r.images.overview);
    for (let k = 0; k < r.images.pred.length; k++)
      await fs.writeFile(path.join(outDir, `${base}_pred_${k + 1}.webp`), r.images.pred[k]!);
  };
  let outcomes;
  try {
    outcomes = await evaluatePhotos(engine, photos, keep, labModel ? { labModel } : undefined);
  } finally {
    await engine.close();
  }
  if (outDir)
    await fs.writeFile(path.join(outDir, 'contact-sheet.png'), await contactSheet(photos.map((p) => sheet.get(p)!)));

  const sets = summariseSets(outcomes);
  if (values.json === true) {
    io.stdout(`${JSON.stringify({ engine: engine.info, sets, outcomes }, null, 1)}\n`);
    return 0;
  }
  io.stdout(photoRows(outcomes));
  io.stdout(
    `\n${sets.map(({ set, summary, bars }) => `${summaryLine(set, summary)}; bars ${barsText(bars)}`).join('\n')}\n\n`,
  );
  io.stdout(summaryTable(sets));
  return 0;
}
