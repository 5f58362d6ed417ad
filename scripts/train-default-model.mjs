// Issue 22 point 5: trains a slice lesion classifier on the committed training part of
// ../shared/real-photos/cbsd-labelled (packages/ppd/src/evaluate/cbsd-labelled-split.ts: CBSD_TRAIN) with the
// lab-model code, and judges it beside the rule-based engine on the held-out part (CBSD_HELDOUT), which it never
// sees. Prints JSON lines: training time and validation, then both engines' MAE on the held-out crops.
// The model is written to --out (default: the system's temp folder), never into the repository: it is shipped
// only if it is small and beats the rules on the held-out part (docs/model.md).
// Usage: npm run build -w @cassavascope/ppd && node scripts/train-default-model.mjs [--out file] [--limit n]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { countLabels, createEngine, labelsPpd, readCbsdMask, trainLabModel } from '@cassavascope/ppd';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { CBSD_HELDOUT, CBSD_TRAIN } = await import(path.join(root, 'packages/ppd/dist/evaluate/cbsd-labelled-split.js'));
const { values } = parseArgs({ options: { out: { type: 'string' }, limit: { type: 'string' } } });
const out = values.out ?? path.join(os.tmpdir(), 'cbsd-default-lesion-model.json');
const limit = values.limit ? Number(values.limit) : CBSD_TRAIN.length;
const dir = path.resolve(root, '../shared/real-photos/cbsd-labelled');
if (!fs.existsSync(dir)) {
  console.error(`no ${dir}: nothing to train on`);
  process.exit(1);
}
const line = (o) => console.log(JSON.stringify(o));
const photo = async (file) => {
  const id = file.replace(/\.png$/, '');
  return {
    id,
    image: fs.readFileSync(path.join(dir, file)),
    labels: await readCbsdMask(path.join(dir, `${id}_mask.png`)),
  };
};
/** PPD of a photo's labels (the package's own rule, as training reports it). */
const photoLabelsPpd = (p) => labelsPpd(countLabels(p.labels.values));

const train = await Promise.all(CBSD_TRAIN.slice(0, limit).map(photo));
const started = performance.now();
const model = await trainLabModel(train, { name: 'CBSD slices (default candidate)' });
fs.writeFileSync(out, model.file);
line({
  step: 'train',
  photos: train.length,
  seconds: Math.round((performance.now() - started) / 100) / 10,
  file: out,
  file_kb: Math.round(model.file.length / 1024),
  validation_on_training_part: model.metrics,
});

const heldout = await Promise.all(CBSD_HELDOUT.map(photo));
const engine = await createEngine();
try {
  const truth = heldout.map(photoLabelsPpd);
  const read = (options) => Promise.all(heldout.map((p) => engine.analyse(Buffer.from(p.image), {}, 'full', options)));
  const mae = (rs) => rs.reduce((s, r, i) => s + Math.abs((r.ppd_value ?? 0) - truth[i]), 0) / rs.length;
  const rules = await read({});
  const learned = await read({ labModel: { id: 'default-candidate', file: model.file } });
  line({
    step: 'heldout',
    photos: heldout.length,
    rules_mae: Math.round(mae(rules) * 1000) / 1000,
    learned_mae: Math.round(mae(learned) * 1000) / 1000,
    rules_refused: rules.filter((r) => r.error_code).length,
    learned_refused: learned.filter((r) => r.error_code).length,
  });
} finally {
  await engine.close();
}
