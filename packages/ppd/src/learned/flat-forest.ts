import { RandomForestClassifier } from 'ml-random-forest';

/**
 * A trained forest as flat typed arrays. ml-random-forest grows the trees (see `fitForest`); its own predict
 * walks nested objects through ml-matrix at about 2 us a tree a pixel, and a photo has 10^5-10^6 pixels, so
 * the trees are copied into these arrays once and walked here in a tight loop (about 50x faster).
 */
export interface FlatForest {
  classCount: number;
  featureCount: number;
  /** root node of each tree */
  roots: Int32Array;
  /** per node: the feature tested, or -1 for a leaf */
  feature: Int16Array;
  /** per node: go left when the feature is below this */
  threshold: Float32Array;
  /** per node: the left child; for a leaf, the offset of its class probabilities in `leaf` */
  left: Int32Array;
  right: Int32Array;
  /** class probabilities of the leaves, `classCount` a leaf */
  leaf: Float32Array;
}

interface MlNode {
  splitValue?: number;
  splitColumn?: number;
  left?: MlNode;
  right?: MlNode;
  distribution?: number[][] | { data?: number[][] };
}

export interface FitOptions {
  trees: number;
  /** labelled pixels each tree is grown on (a fresh class-balanced draw per tree) */
  perTree: number;
  maxDepth: number;
  /** share of the features each tree may split on */
  maxFeatures: number;
  seed: number;
}

/** A small, seeded generator (mulberry32): training is reproducible. */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Grows a random forest with ml-random-forest (mljs) and flattens it. The library's split search costs about
 * the square of a node's samples (it tries every label change in sorted order, each in O(n)): 10 000 pixels
 * take a minute a tree. So each tree is grown by its own one-tree forest on a fresh class-balanced draw of
 * `perTree` pixels from the pool (as scikit-learn's `max_samples`), which keeps a tree near a quarter second
 * and still lets the whole forest see tens of thousands of labelled pixels.
 */
export function fitForest(
  samples: Float32Array,
  labels: Uint8Array,
  featureCount: number,
  classCount: number,
  options: FitOptions,
): FlatForest {
  const random = rng(options.seed);
  const byClass: number[][] = Array.from({ length: classCount }, () => []);
  labels.forEach((c, i) => byClass[c]!.push(i));
  const present = byClass.filter((ix) => ix.length > 0);
  const per = Math.max(1, Math.floor(options.perTree / Math.max(1, present.length)));
  const nodes: { feature: number[]; threshold: number[]; left: number[]; right: number[]; leaf: number[] } = {
    feature: [],
    threshold: [],
    left: [],
    right: [],
    leaf: [],
  };
  const roots: number[] = [];
  for (let t = 0; t < options.trees; t++) {
    const X: number[][] = [];
    const y: number[] = [];
    for (const ix of present) {
      for (let k = 0; k < per; k++) {
        const i = ix[Math.floor(random() * ix.length)]!;
        X.push(Array.from(samples.subarray(i * featureCount, (i + 1) * featureCount)));
        y.push(labels[i]!);
      }
    }
    // shuffled: the library counts classes with indexOf, which is quadratic on rows grouped by class
    for (let k = y.length - 1; k > 0; k--) {
      const j = Math.floor(random() * (k + 1));
      [X[k], X[j]] = [X[j]!, X[k]!];
      [y[k], y[j]] = [y[j]!, y[k]!];
    }
    const forest = new RandomForestClassifier({
      nEstimators: 1,
      maxFeatures: options.maxFeatures,
      replacement: false,
      seed: Math.floor(random() * 2 ** 31),
      useSampleBagging: false,
      noOOB: true,
      treeOptions: { maxDepth: options.maxDepth, minNumSamples: 3, gainThreshold: 0 },
    });
    forest.train(X, y);
    const model = JSON.parse(JSON.stringify(forest.toJSON())) as {
      baseModel: { indexes: number[][]; estimators: { root: MlNode }[] };
    };
    const used = model.baseModel.indexes[0]!;
    roots.push(addNode(model.baseModel.estimators[0]!.root, used, classCount, nodes));
  }
  return {
    classCount,
    featureCount,
    roots: Int32Array.from(roots),
    feature: Int16Array.from(nodes.feature),
    threshold: Float32Array.from(nodes.threshold),
    left: Int32Array.from(nodes.left),
    right: Int32Array.from(nodes.right),
    leaf: Float32Array.from(nodes.leaf),
  };
}

function distributionOf(node: MlNode): number[] {
  const d = node.distribution;
  const rows = Array.isArray(d) ? d : (d?.data ?? [[]]);
  return rows[0] ?? [];
}

function addNode(
  node: MlNode,
  used: number[],
  classCount: number,
  out: { feature: number[]; threshold: number[]; left: number[]; right: number[]; leaf: number[] },
): number {
  const id = out.feature.length;
  out.feature.push(-1);
  out.threshold.push(0);
  out.left.push(0);
  out.right.push(0);
  if (node.distribution !== undefined || !node.left || !node.right) {
    const dist = distributionOf(node);
    out.left[id] = out.leaf.length;
    for (let c = 0; c < classCount; c++) out.leaf.push(dist[c] ?? 0);
    return id;
  }
  out.feature[id] = used[node.splitColumn!]!;
  out.threshold[id] = node.splitValue!;
  out.left[id] = addNode(node.left, used, classCount, out);
  out.right[id] = addNode(node.right, used, classCount, out);
  return id;
}

/**
 * Class probabilities (mean over the trees) of the pixels listed in `pixels` (all `n` when absent), written to
 * `out` at `k * classCount + c` for the k-th pixel listed. `features` is feature-major (`f * n + i`).
 */
export function predictProba(
  forest: FlatForest,
  features: Float32Array,
  n: number,
  pixels?: Int32Array,
  out?: Float32Array,
): Float32Array {
  const { classCount, roots, feature, threshold, left, right, leaf } = forest;
  const count = pixels ? pixels.length : n;
  const result = out ?? new Float32Array(count * classCount);
  result.fill(0);
  const inv = 1 / roots.length;
  for (let k = 0; k < count; k++) {
    const i = pixels ? pixels[k]! : k;
    const o = k * classCount;
    for (let t = 0; t < roots.length; t++) {
      let node = roots[t]!;
      let f = feature[node]!;
      while (f >= 0) {
        node = features[f * n + i]! < threshold[node]! ? left[node]! : right[node]!;
        f = feature[node]!;
      }
      const l = left[node]!;
      for (let c = 0; c < classCount; c++) result[o + c]! += leaf[l + c]!;
    }
    for (let c = 0; c < classCount; c++) result[o + c]! *= inv;
  }
  return result;
}

/**
 * Class probabilities of every pixel of a `width` x `height` image, reading one pixel per `stride` x `stride`
 * block and giving it to the whole block (a forest costs ~25 tree walks a pixel; the classes change over
 * several pixels, so stride 2 reads the same at a quarter of the cost). With `mask`, only masked pixels are
 * read and filled (a block's first masked pixel stands for it); the rest stay 0.
 */
export function predictBlocks(
  forest: FlatForest,
  features: Float32Array,
  width: number,
  height: number,
  stride: number,
  mask?: Uint8Array,
): Float32Array {
  const n = width * height;
  const C = forest.classCount;
  const bw = Math.ceil(width / stride);
  const bh = Math.ceil(height / stride);
  const rep = new Int32Array(bw * bh).fill(-1);
  let count = 0;
  for (let by = 0; by < bh; by++)
    for (let bx = 0; bx < bw; bx++) {
      found: for (let y = by * stride; y < Math.min(height, (by + 1) * stride); y++)
        for (let x = bx * stride; x < Math.min(width, (bx + 1) * stride); x++) {
          const i = y * width + x;
          if (mask && !mask[i]) continue;
          rep[by * bw + bx] = i;
          count++;
          break found;
        }
    }
  const pixels = new Int32Array(count);
  const slot = new Int32Array(bw * bh).fill(-1);
  for (let b = 0, k = 0; b < rep.length; b++)
    if (rep[b]! >= 0) {
      slot[b] = k;
      pixels[k++] = rep[b]!;
    }
  const probs = predictProba(forest, features, n, pixels);
  const out = new Float32Array(n * C);
  for (let y = 0; y < height; y++) {
    const brow = ((y / stride) | 0) * bw;
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (mask && !mask[i]) continue;
      const k = slot[brow + ((x / stride) | 0)]!;
      if (k < 0) continue;
      for (let c = 0; c < C; c++) out[i * C + c] = probs[k * C + c]!;
    }
  }
  return out;
}
