import fs from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createEngine } from '../engine.js';
import { comparePhoto, summarise, type PhotoOutcome, type Summary } from '../evaluate/compare.js';
import { contactSheet } from '../evaluate/contact-sheet.js';
import { readLabelledFolder } from '../evaluate/labelled-folder.js';
import type { CliIo } from './score-cli.js';

export const EVALUATE_USAGE = `Usage: ppd evaluate <labelled folder> [options]

Scores every photo of a labelled folder (truth.json at its top, as ../shared/real-photos) and compares with
the labels: specimens found (whole: box IoU >= 0.8), extra specimens, refusals, slice MAE, bias, r, band
agreement and how well confidence separates right readings from wrong ones (ROC AUC).

Options:
  --refuse <dirs>     comma-separated sub-folder names whose unlabelled photos must be refused (e.g. field-leaves)
  --holdout <names>   comma-separated file names kept out of tuning: reported separately
  --out <dir>         write every overview and prediction image and a contact sheet (contact-sheet.png)
  --json              print the per-photo outcomes and summaries as JSON instead of a table
  --model <file.onnx> score with an ONNX model instead of the colour engine
  --workers <n>       worker threads (default: every core)`;

const fmt = (v: number | null, d = 2) => (v === null ? '-' : v.toFixed(d));

function summaryLine(label: string, s: Summary): string {
  return (
    `${label}: ${s.photos} photos; specimens ${s.matched}/${s.expectedSpecimens} found (${s.whole} whole), ${s.extra} extra; ` +
    `refusals ${s.refusalsGiven}/${s.refusalsExpected}, wrong refusals ${s.wrongRefusals}; ` +
    `slices scored ${s.scoredSlices}: MAE ${fmt(s.mae)}, bias ${fmt(s.bias)}, r ${fmt(s.r)}, bands ${s.bandAgreement === null ? '-' : (s.bandAgreement * 100).toFixed(1) + ' %'}; ` +
    `confidence AUC ${fmt(s.confidenceAuc)}`
  );
}

/** `ppd evaluate ...`; returns the exit status (0 always once it ran: it measures, it does not judge). */
export async function runEvaluate(argv: string[], io: CliIo): Promise<number> {
  let values: Record<string, string | boolean | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        refuse: { type: 'string' },
        holdout: { type: 'string' },
        out: { type: 'string' },
        json: { type: 'boolean' },
        model: { type: 'string' },
        workers: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
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
  const list = (v: unknown) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : [];
  const holdout = new Set(list(values.holdout));
  const photos = await readLabelledFolder(folder, list(values.refuse));
  const workers = values.workers ? Number(values.workers) : undefined;
  const engine = await createEngine({
    modelPath: (values.model as string | undefined) || process.env.MODEL_PATH || undefined,
    workers,
  });
  const outDir = values.out as string | undefined;
  if (outDir) await fs.mkdir(outDir, { recursive: true });
  io.stderr(`ppd: evaluating ${photos.length} photo(s) with "${engine.info.label}"\n`);
  const outcomes: PhotoOutcome[] = [];
  const sheet: { image: Buffer | null; caption: string }[] = [];
  try {
    const results = await Promise.all(photos.map((p) => engine.analyse(p.file)));
    for (let i = 0; i < photos.length; i++) {
      const p = photos[i]!;
      const r = results[i]!;
      const o = comparePhoto(p, r);
      outcomes.push(o);
      const verdict = r.error_code ? r.error_code : `${r.specimens.length} specimen(s), PPD ${fmt(r.ppd_value)}`;
      sheet.push({ image: r.images.overview, caption: `${p.name}: ${verdict}` });
      if (outDir) {
        const base = p.name.replace(/\.[^./\\]+$/, '').replace(/[\\/]+/g, '__');
        if (r.images.overview) await fs.writeFile(path.join(outDir, `${base}_overview.webp`), r.images.overview);
        for (let k = 0; k < r.images.pred.length; k++)
          await fs.writeFile(path.join(outDir, `${base}_pred_${k + 1}.webp`), r.images.pred[k]!);
      }
    }
  } finally {
    await engine.close();
  }
  if (outDir) await fs.writeFile(path.join(outDir, 'contact-sheet.png'), await contactSheet(sheet));

  const all = summarise(outcomes);
  const tuned = summarise(outcomes.filter((o) => !holdout.has(path.basename(o.name))));
  const held = summarise(outcomes.filter((o) => holdout.has(path.basename(o.name))));
  if (values.json === true) {
    io.stdout(
      `${JSON.stringify({ outcomes, summary: { all, tuning: holdout.size ? tuned : undefined, holdout: holdout.size ? held : undefined } }, null, 1)}\n`,
    );
    return 0;
  }
  io.stdout(
    'photo | set | expect | outcome | found/expected (whole) | extra | specimen readings (engine/labelled, confidence)\n',
  );
  for (const o of outcomes) {
    const readings = o.specimens
      .map(
        (s) =>
          `${s.index ?? 'missed'}:${fmt(s.ppd)}/${fmt(s.truthPpd)}${s.confidence === null ? '' : ` c${fmt(s.confidence)}`}`,
      )
      .join(' ');
    io.stdout(
      `${o.name} | ${holdout.has(path.basename(o.name)) ? 'holdout' : 'tuning'} | ${o.expect} | ${o.error_code ?? 'scored'}${o.ok ? '' : ' (WRONG)'} | ` +
        `${o.matched}/${o.expected} (${o.whole}) | ${o.extra} | ${readings}\n`,
    );
  }
  io.stdout(`\n${summaryLine('all', all)}\n`);
  if (holdout.size) io.stdout(`${summaryLine('tuning', tuned)}\n${summaryLine('holdout', held)}\n`);
  return 0;
}
