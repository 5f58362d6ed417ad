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
 * A forest laid out for walking: the features its nodes test, in order (`used`), so the pixels' features can
 * be gathered pixel by pixel, only those tested; and its nodes renumbered tree by tree, breadth first, so that
 * every split's right child follows its left one (`child[node] + 1`): the walk reads one child array, not
 * two, and a node's children share a cache line.
 */
interface Walk {
  used: Int32Array;
  roots: Int32Array;
  /** per node: the place of its feature in `used`, or -1 for a leaf */
  slot: Int32Array;
  threshold: Float32Array;
  /** per node: its left child (the right one is next), or for a leaf the offset of its shares in `leaf` */
  child: Int32Array;
  /** per node: its right child (the left one + 1 once renumbered) */
  right: Int32Array;
  /**
   * whether the nodes are renumbered so a right child follows its left one. A file may share nodes between
   * parents (a valid walk, but no tree): renumbering would copy a shared subtree once per path to it, so such a
   * forest keeps its numbering and right children.
   */
  renumbered: boolean;
  leaf: Float32Array;
}
const walks = new WeakMap<FlatForest, Walk>();

function walkOf(forest: FlatForest): Walk {
  const hit = walks.get(forest);
  if (hit && hit.leaf === forest.leaf) return hit;
  const { feature, threshold, left, right, roots } = forest;
  const place = new Int32Array(Math.max(forest.featureCount, 1) + 1).fill(-1);
  const used: number[] = [];
  for (const f of feature) {
    if (f >= 0 && place[f] === -1) {
      place[f] = 0;
      used.push(f);
    }
  }
  used.sort((x, y) => x - y);
  used.forEach((f, k) => (place[f] = k));
  const total = feature.length;
  if (!isTrees(forest)) {
    const walk = {
      used: Int32Array.from(used),
      roots,
      slot: Int32Array.from(feature, (f) => (f < 0 ? -1 : place[f]!)),
      threshold,
      child: left,
      right,
      renumbered: false,
      leaf: forest.leaf,
    };
    walks.set(forest, walk);
    return walk;
  }
  const slot = new Int32Array(total);
  const thresholds = new Float32Array(total);
  const child = new Int32Array(total);
  const packedRoots = new Int32Array(roots.length);
  // breadth first from each root: `from[k]` is the original node given the new number k
  const from = new Int32Array(total);
  let next = 0;
  for (let t = 0; t < roots.length; t++) {
    packedRoots[t] = next;
    let head = next;
    from[next++] = roots[t]!;
    while (head < next) {
      const k = head++;
      const old = from[k]!;
      if (feature[old]! < 0) {
        slot[k] = -1;
        child[k] = left[old]!;
        continue;
      }
      slot[k] = place[feature[old]!]!;
      thresholds[k] = threshold[old]!;
      child[k] = next;
      from[next++] = left[old]!;
      from[next++] = right[old]!;
    }
  }
  const walk = {
    used: Int32Array.from(used),
    roots: packedRoots,
    slot: slot.subarray(0, next),
    threshold: thresholds.subarray(0, next),
    child: child.subarray(0, next),
    right: Int32Array.from(child.subarray(0, next), (c) => c + 1),
    renumbered: true,
    leaf: forest.leaf,
  };
  walks.set(forest, walk);
  return walk;
}

/** Whether every node is reached from one root by one path only (as `fitForest` grows them). */
function isTrees(forest: FlatForest): boolean {
  const { feature, left, right, roots } = forest;
  const parents = new Uint8Array(feature.length);
  for (const r of roots) if (parents[r]!++ > 0) return false;
  for (let i = 0; i < feature.length; i++) {
    if (feature[i]! < 0) continue;
    if (parents[left[i]!]!++ > 0 || parents[right[i]!]!++ > 0) return false;
  }
  return true;
}

/** The features a forest tests (true at their index): what the pixels must have for it, the rest may stay 0. */
export function testedFeatures(forest: FlatForest): boolean[] {
  const tested = Array.from({ length: forest.featureCount }, () => false);
  for (const f of walkOf(forest).used) tested[f] = true;
  return tested;
}

/**
 * Class probabilities (mean over the trees) of the pixels listed in `pixels` (all `n` when absent), written to
 * `out` at `k * classCount + c` for the k-th pixel listed. `features` is feature-major (`f * n + i`). The
 * tested features of the listed pixels are first gathered pixel-major (a pixel's few features in one or two
 * cache lines instead of one plane each, megabytes apart), then each pixel walks every tree.
 */
export function predictProba(
  forest: FlatForest,
  features: Float32Array,
  n: number,
  pixels?: Int32Array,
  out?: Float32Array,
): Float32Array {
  const { classCount } = forest;
  const count = pixels ? pixels.length : n;
  const result = out ?? new Float32Array(count * classCount);
  const walk = walkOf(forest);
  const rows = gather(features, n, walk.used, pixels, count);
  walkTrees(walk, classCount, rows, count, result);
  return result;
}

function gather(
  features: Float32Array,
  n: number,
  used: Int32Array,
  pixels: Int32Array | undefined,
  count: number,
): Float32Array {
  const width = used.length;
  const rows = new Float32Array(count * width);
  for (let u = 0; u < width; u++) {
    const base = used[u]! * n;
    if (pixels) for (let k = 0, o = u; k < count; k++, o += width) rows[o] = features[base + pixels[k]!]!;
    else for (let k = 0, o = u; k < count; k++, o += width) rows[o] = features[base + k]!;
  }
  return rows;
}

function walkTrees(walk: Walk, classCount: number, rows: Float32Array, count: number, result: Float32Array): void {
  if (walk.renumbered && classCount === 4) walkTrees4(walk, rows, count, result);
  else walkNodes(walk, classCount, rows, count, result);
}

/**
 * `walkTrees` for four classes (every lab model), the sums kept in registers: each step rounded to float32 as
 * the stores into `result` round them, so the values are the same.
 */
function walkTrees4(walk: Walk, rows: Float32Array, count: number, result: Float32Array): void {
  const { roots, slot, threshold, child, leaf } = walk;
  const width = walk.used.length;
  const trees = roots.length;
  const inv = 1 / trees;
  const fr = Math.fround;
  for (let k = 0; k < count; k++) {
    const r = k * width;
    let p0 = 0;
    let p1 = 0;
    let p2 = 0;
    let p3 = 0;
    for (let t = 0; t < trees; t++) {
      let node = roots[t]!;
      let f = slot[node]!;
      while (f >= 0) {
        node = rows[r + f]! < threshold[node]! ? child[node]! : child[node]! + 1;
        f = slot[node]!;
      }
      const l = child[node]!;
      p0 = fr(p0 + leaf[l]!);
      p1 = fr(p1 + leaf[l + 1]!);
      p2 = fr(p2 + leaf[l + 2]!);
      p3 = fr(p3 + leaf[l + 3]!);
    }
    const o = k * 4;
    result[o] = p0 * inv;
    result[o + 1] = p1 * inv;
    result[o + 2] = p2 * inv;
    result[o + 3] = p3 * inv;
  }
}

/** `walkTrees` for any forest: any class count, and nodes that may be shared (kept in the file's numbering). */
function walkNodes(walk: Walk, classCount: number, rows: Float32Array, count: number, result: Float32Array): void {
  const { roots, slot, threshold, child, right, leaf } = walk;
  const width = walk.used.length;
  result.fill(0);
  const inv = 1 / roots.length;
  for (let k = 0; k < count; k++) {
    const r = k * width;
    const o = k * classCount;
    for (let t = 0; t < roots.length; t++) {
      let node = roots[t]!;
      let f = slot[node]!;
      while (f >= 0) {
        node = rows[r + f]! < threshold[node]! ? child[node]! : right[node]!;
        f = slot[node]!;
      }
      const l = child[node]!;
      for (let c = 0; c < classCount; c++) result[o + c]! += leaf[l + c]!;
    }
    for (let c = 0; c < classCount; c++) result[o + c]! *= inv;
  }
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
  const { probs, slot, blocksWide } = readBlocks(forest, features, width, height, stride, mask);
  const out = new Float32Array(n * C);
  for (let y = 0; y < height; y++) {
    const brow = ((y / stride) | 0) * blocksWide;
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

/** What `readBlocks` reads: the class probabilities of each block read, and which block is which. */
export interface BlockReading {
  /** `classCount` a block read, in the order of `slot` */
  probs: Float32Array;
  /** per block (row-major, `blocksWide` a row): its place in `probs`, or -1 (no masked pixel) */
  slot: Int32Array;
  blocksWide: number;
}

/**
 * `predictBlocks` without the per-pixel copy: the probabilities of each `stride` x `stride` block read (its
 * first masked pixel standing for it), for a caller that turns them into its own per-pixel values.
 */
export function readBlocks(
  forest: FlatForest,
  features: Float32Array,
  width: number,
  height: number,
  stride: number,
  mask?: Uint8Array,
): BlockReading {
  const n = width * height;
  const bw = Math.ceil(width / stride);
  const bh = Math.ceil(height / stride);
  const slot = new Int32Array(bw * bh).fill(-1);
  const rep = new Int32Array(bw * bh);
  let count = 0;
  for (let by = 0; by < bh; by++)
    for (let bx = 0; bx < bw; bx++) {
      found: for (let y = by * stride; y < Math.min(height, (by + 1) * stride); y++)
        for (let x = bx * stride; x < Math.min(width, (bx + 1) * stride); x++) {
          const i = y * width + x;
          if (mask && !mask[i]) continue;
          slot[by * bw + bx] = count;
          rep[count++] = i;
          break found;
        }
    }
  const probs = predictProba(forest, features, n, rep.subarray(0, count));
  return { probs, slot, blocksWide: bw };
}
