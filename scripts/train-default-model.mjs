// Issue 22 point 5: trains a slice lesion classifier on the committed training part of
// ../shared/real-photos/cbsd-labelled (packages/ppd/src/evaluate/cbsd-labelled-split.ts: CBSD_TRAIN) with the
// lab-model code, and judges it beside the rule-based engine on the held-out part (CBSD_HELDOUT), which it never
// sees. Prints JSON lines: training time and validation, then both engines' MAE on the held-out crops.
// The model is written to --out (default: the system's temp folder), never into the repository: it is shipped
// only if it is small and beats the rules on the held-out part (docs/model.md).
// Usage: npm run build -w @cassavascope/ppd && node scripts/train-default-model.mjs [--out file] [--limit n]
// With --cut-out it fits only the luma cut the crops' labels follow (models/cut-out-lesions.ts; the numbers go
// into CUT_OUT_LESION in packages/ppd/src/models/tuning.ts) on the training part, and prints its 5-fold
// validation on that part beside the rules'.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { countLabels, createEngine, labelsPpd, readCbsdMask, trainLabModel } from '@cassavascope/ppd';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const { CBSD_HELDOUT, CBSD_TRAIN } = await import(path.join(root, 'packages/ppd/dist/evaluate/cbsd-labelled-split.js'));
const { values } = parseArgs({
  options: { out: { type: 'string' }, limit: { type: 'string' }, 'cut-out': { type: 'boolean' } },
});
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

if (values['cut-out']) {
  await fitCutOut(CBSD_TRAIN.slice(0, limit));
  process.exit(0);
}

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

/**
 * The cut-out convention (models/cut-out-lesions.ts): each training crop's labelled luma cut (the grey level that
 * agrees with most of its labelled slice pixels), the features the engine reads from the slice it finds, a
 * least-squares fit of the one on the others; then the engine's reading of each crop with the fit, 5 folds by
 * crop (each fold's crops read by a fit without them).
 */
async function fitCutOut(files) {
  const dist = (p) => import(path.join(root, 'packages/ppd/dist', p));
  const { decodeImage } = await dist('pipeline/decode-image.js');
  const { findWorkingSpecimens, scaledParams } = await dist('pipeline/analyse-image.js');
  const { scoreCut } = await dist('pipeline/second-segmentation.js');
  const { createColourModel } = await dist('models/colour-model.js');
  const { cutOutFeatures, cutOutLesionProbability, luma, lumaHistogram } = await dist('models/cut-out-lesions.js');
  const { CUT_OUT_LESION } = await dist('models/tuning.js');
  const { cropRgb } = await dist('imaging/raster.js');
  const { parseAnalysisParams } = await import('@cassavascope/ppd');
  const params = parseAnalysisParams({}).params;
  const rules = createColourModel({ cutOutConvention: false });
  const crops = [];
  const agreement = [];
  for (const file of files) {
    const p = await photo(file);
    const decoded = await decodeImage(p.image);
    if (!decoded.ok) throw new Error(`${file}: ${decoded.message}`);
    const { image, originalWidth, originalHeight } = decoded.decoded;
    if (image.width !== p.labels.width || image.height !== p.labels.height) throw new Error(`${file}: size`);
    // the labelled cut: the luma that splits the labelled slice into its two classes best
    const hist = [new Float64Array(256), new Float64Array(256)];
    let slice = 0;
    for (let i = 0; i < p.labels.values.length; i++) {
      const v = p.labels.values[i];
      if (v !== 2 && v !== 3) continue;
      const y = luma(image.data[3 * i], image.data[3 * i + 1], image.data[3 * i + 2]);
      hist[v === 3 ? 1 : 0][Math.min(255, Math.floor(y))]++;
      slice++;
    }
    // cut 0 reads nothing as lesion: every lesion pixel is wrong
    let wrong = hist[1].reduce((a, b) => a + b, 0);
    let best = { wrong, cut: 0 };
    for (let t = 0; t < 256; t++) {
      wrong += hist[0][t] - hist[1][t]; // luma in [t, t + 1) now reads lesion
      if (wrong < best.wrong) best = { wrong, cut: t + 1 };
    }
    agreement.push(1 - best.wrong / slice);
    const found = await findWorkingSpecimens(rules, image, params);
    if (found.length === 0) continue;
    const s = found.map((f) => f.specimen).sort((a, b) => b.area - a.area)[0];
    const crop = cropRgb(image, s.rect);
    const prob = await rules.lesionProbability(crop, s.mask, 'root_slice');
    let area = 0;
    let lesion = 0;
    for (let i = 0; i < prob.length; i++) {
      if (!s.mask[i] || prob[i] < 0) continue;
      area++;
      if (prob[i] >= 0.5) lesion++;
    }
    const share = area > 0 ? lesion / area : 0;
    const lesionParams = scaledParams(params, image.width, image.height, originalWidth, originalHeight);
    const rulesPpd = 10 * scoreCut(prob, s.mask, crop.width, crop.height, lesionParams).share;
    crops.push({
      file,
      crop,
      mask: s.mask,
      share,
      rulesPpd,
      lesionParams,
      features: cutOutFeatures(lumaHistogram(crop.data, s.mask), share),
      cut: best.cut,
      truth: photoLabelsPpd(p),
    });
  }
  const read = (c, fit) =>
    10 *
    scoreCut(cutOutLesionProbability(c.crop, c.mask, c.share, fit), c.mask, c.crop.width, c.crop.height, c.lesionParams)
      .share;
  const mae = (pairs) => pairs.reduce((s, [a, b]) => s + Math.abs(a - b), 0) / pairs.length;
  const fitOn = (set) => {
    const k = set[0].features.length + 1;
    const A = Array.from({ length: k }, () => new Float64Array(k + 1));
    for (const c of set) {
      const x = [1, ...c.features];
      for (let i = 0; i < k; i++) {
        for (let j = 0; j < k; j++) A[i][j] += x[i] * x[j];
        A[i][k] += x[i] * c.cut;
      }
    }
    // Gauss-Jordan with partial pivoting
    for (let col = 0; col < k; col++) {
      let piv = col;
      for (let r = col + 1; r < k; r++) if (Math.abs(A[r][col]) > Math.abs(A[piv][col])) piv = r;
      [A[col], A[piv]] = [A[piv], A[col]];
      for (let r = 0; r < k; r++) {
        if (r === col) continue;
        const f = A[r][col] / A[col][col];
        for (let c = col; c <= k; c++) A[r][c] -= f * A[col][c];
      }
    }
    return A.map((row, i) => row[k] / row[i]);
  };
  const folds = 5;
  const validation = {};
  for (const weight of [1, CUT_OUT_LESION.modelWeight]) {
    const pairs = [];
    for (let f = 0; f < folds; f++) {
      const coefficients = fitOn(crops.filter((_, i) => i % folds !== f));
      for (const c of crops.filter((_, i) => i % folds === f))
        pairs.push([read(c, { coefficients, modelWeight: weight }), c.truth]);
    }
    validation[`model_weight_${weight}`] = Math.round(mae(pairs) * 1000) / 1000;
  }
  const coefficients = fitOn(crops);
  // the labelled cuts' spread round the fit (grey levels): the logistic's width is set from it
  const residual = Math.sqrt(
    crops.reduce((s, c) => s + ([1, ...c.features].reduce((t, x, i) => t + x * coefficients[i], 0) - c.cut) ** 2, 0) /
      (crops.length - coefficients.length),
  );
  const r4 = (v) => Math.round(v * 10000) / 10000;
  line({
    step: 'cut-out',
    crops: crops.length,
    labelled_cut_agreement: {
      mean: r4(agreement.reduce((a, b) => a + b, 0) / agreement.length),
      min: r4(Math.min(...agreement)),
    },
    coefficients: coefficients.map(r4),
    cut_residual_sd: Math.round(residual * 10) / 10,
    validation_5_fold_mae: validation,
    rules_mae: Math.round(mae(crops.map((c) => [c.rulesPpd, c.truth])) * 1000) / 1000,
    fitted_mae:
      Math.round(
        mae(crops.map((c) => [read(c, { coefficients, modelWeight: CUT_OUT_LESION.modelWeight }), c.truth])) * 1000,
      ) / 1000,
  });
}
