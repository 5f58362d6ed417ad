/**
 * Binary mask operations on Uint8Array planes (0/1), all O(pixels) per pass so they stay cheap at 1024 px.
 * Square structuring elements are applied separably (row pass, then column pass) with running counts;
 * windows are clipped at the image edge, so objects touching the frame are not eaten from outside.
 */

/**
 * Row pass: each output pixel looks at the k pixels centred on it in its row (window clipped at the edges).
 * The interior, where the window is whole, runs without edge tests: this pass is the engine's hottest loop.
 */
function rowPass(src: Uint8Array, width: number, height: number, k: number, erode: boolean): Uint8Array {
  const out = new Uint8Array(src.length);
  const r = k >> 1;
  const full = 2 * r + 1;
  // [lo, hi): x where both window ends lie inside the row
  const lo = Math.min(width, r + 1);
  const hi = Math.max(lo, width - r);
  for (let y = 0; y < height; y++) {
    const o = y * width;
    let ones = 0;
    for (let x = 0; x < Math.min(r, width); x++) ones += src[o + x]!;
    const edge = (x: number) => {
      if (x + r < width) ones += src[o + x + r]!;
      if (x - r - 1 >= 0) ones -= src[o + x - r - 1]!;
      const span = Math.min(width, x + r + 1) - Math.max(0, x - r);
      out[o + x] = erode ? (ones === span ? 1 : 0) : ones > 0 ? 1 : 0;
    };
    for (let x = 0; x < lo; x++) edge(x);
    if (erode) {
      for (let x = lo; x < hi; x++) {
        ones += src[o + x + r]! - src[o + x - r - 1]!;
        out[o + x] = ones === full ? 1 : 0;
      }
    } else {
      for (let x = lo; x < hi; x++) {
        ones += src[o + x + r]! - src[o + x - r - 1]!;
        out[o + x] = ones > 0 ? 1 : 0;
      }
    }
    for (let x = hi; x < width; x++) edge(x);
  }
  return out;
}

/** Column pass, walked row by row with one running count per column so memory is read in order. */
function columnPass(src: Uint8Array, width: number, height: number, k: number, erode: boolean): Uint8Array {
  const out = new Uint8Array(src.length);
  const r = k >> 1;
  const ones = new Int32Array(width);
  for (let y = 0; y < Math.min(r, height); y++) {
    const o = y * width;
    for (let x = 0; x < width; x++) ones[x]! += src[o + x]!;
  }
  for (let y = 0; y < height; y++) {
    const add = y + r < height ? (y + r) * width : -1;
    const sub = y - r - 1 >= 0 ? (y - r - 1) * width : -1;
    if (add >= 0 && sub >= 0) for (let x = 0; x < width; x++) ones[x]! += src[add + x]! - src[sub + x]!;
    else if (add >= 0) for (let x = 0; x < width; x++) ones[x]! += src[add + x]!;
    else if (sub >= 0) for (let x = 0; x < width; x++) ones[x]! -= src[sub + x]!;
    const span = Math.min(height, y + r + 1) - Math.max(0, y - r);
    const o = y * width;
    if (erode) for (let x = 0; x < width; x++) out[o + x] = ones[x] === span ? 1 : 0;
    else for (let x = 0; x < width; x++) out[o + x] = ones[x]! > 0 ? 1 : 0;
  }
  return out;
}

function pass1d(
  src: Uint8Array,
  width: number,
  height: number,
  k: number,
  erode: boolean,
  horizontal: boolean,
): Uint8Array {
  return horizontal ? rowPass(src, width, height, k, erode) : columnPass(src, width, height, k, erode);
}

/**
 * Chessboard distance of each foreground pixel to the nearest background pixel or image edge, in pixels
 * (1 = on the boundary). Equals the number of 3x3 erosions that remove the pixel; two passes instead of many.
 */
export function boundaryDistance(mask: Uint8Array, width: number, height: number): Int32Array {
  const d = new Int32Array(mask.length);
  const BIG = 1 << 28;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = y * width + x;
      if (!mask[i]) continue;
      if (x === 0 || y === 0 || x === width - 1 || y === height - 1) {
        d[i] = 1;
        continue;
      }
      let m = BIG;
      m = Math.min(m, d[i - 1]!, d[i - width - 1]!, d[i - width]!, d[i - width + 1]!);
      d[i] = m + 1;
    }
  }
  for (let y = height - 1; y >= 0; y--) {
    for (let x = width - 1; x >= 0; x--) {
      const i = y * width + x;
      if (!mask[i] || d[i] === 1) continue;
      const m = Math.min(d[i + 1]!, d[i + width + 1]!, d[i + width]!, d[i + width - 1]!);
      if (m + 1 < d[i]!) d[i] = m + 1;
    }
  }
  return d;
}

export function erode(mask: Uint8Array, width: number, height: number, k: number): Uint8Array {
  if (k <= 1) return mask.slice();
  return pass1d(pass1d(mask, width, height, k, true, true), width, height, k, true, false);
}

export function dilate(mask: Uint8Array, width: number, height: number, k: number): Uint8Array {
  if (k <= 1) return mask.slice();
  return pass1d(pass1d(mask, width, height, k, false, true), width, height, k, false, false);
}

/** Opening (erode then dilate, `iterations` times each): removes specks and thin bridges. */
export function open(mask: Uint8Array, width: number, height: number, k: number, iterations = 1): Uint8Array {
  let m = mask;
  for (let i = 0; i < iterations; i++) m = erode(m, width, height, k);
  for (let i = 0; i < iterations; i++) m = dilate(m, width, height, k);
  return m;
}

/** Closing (dilate then erode): fills pinholes and joins streaks split by a pixel or two. */
export function close(mask: Uint8Array, width: number, height: number, k: number, iterations = 1): Uint8Array {
  let m = mask;
  for (let i = 0; i < iterations; i++) m = dilate(m, width, height, k);
  for (let i = 0; i < iterations; i++) m = erode(m, width, height, k);
  return m;
}

export interface Components {
  /** 0 = background, 1..count = component id */
  labels: Int32Array;
  count: number;
  /** index = component id */
  areas: Int32Array;
  minX: Int32Array;
  minY: Int32Array;
  maxX: Int32Array;
  maxY: Int32Array;
  sumX: Float64Array;
  sumY: Float64Array;
}

/**
 * Connected components (4- or 8-connected) of the nonzero pixels, found as row runs joined by union-find
 * (a pixel flood visited every pixel's neighbours one by one: the same labels at a fraction of the cost).
 * Components are numbered in the order of their first pixel in scan order, as a flood from each unlabelled
 * pixel in turn numbers them.
 */
export function components(mask: Uint8Array, width: number, height: number, connectivity: 4 | 8 = 8): Components {
  const n = width * height;
  const labels = new Int32Array(n);
  // the runs of nonzero pixels, row by row, each joined to the runs it touches in the row above
  let cap = 0;
  for (let y = 0; y < height; y++) {
    const o = y * width;
    let inside = false;
    for (let x = 0; x < width; x++) {
      const on = mask[o + x] !== 0;
      if (on && !inside) cap++;
      inside = on;
    }
  }
  const row = new Int32Array(cap);
  const x0 = new Int32Array(cap);
  const x1 = new Int32Array(cap);
  const parent = new Int32Array(cap);
  const reach = connectivity === 8 ? 1 : 0;
  let count = 0;
  let prevStart = 0;
  let prevEnd = 0;
  for (let y = 0; y < height; y++) {
    const o = y * width;
    const start = count;
    let x = 0;
    while (x < width) {
      while (x < width && mask[o + x] === 0) x++;
      if (x >= width) break;
      const a = x;
      while (x < width && mask[o + x] !== 0) x++;
      row[count] = y;
      x0[count] = a;
      x1[count] = x;
      parent[count] = count;
      count++;
    }
    let p = prevStart;
    for (let c = start; c < count; c++) {
      while (p < prevEnd && x1[p]! + reach <= x0[c]!) p++;
      for (let q = p; q < prevEnd && x0[q]! < x1[c]! + reach; q++) {
        const ra = runRoot(parent, c);
        const rb = runRoot(parent, q);
        if (ra !== rb) parent[ra] = rb;
      }
    }
    prevStart = start;
    prevEnd = count;
  }
  // number the regions by their first run, then label and measure run by run
  const idOf = new Int32Array(count);
  let ids = 0;
  for (let r = 0; r < count; r++) {
    const root = runRoot(parent, r);
    if (idOf[root] === 0) idOf[root] = ++ids;
  }
  const areas = new Int32Array(ids + 1);
  const minX = new Int32Array(ids + 1).fill(width);
  const minY = new Int32Array(ids + 1).fill(height);
  const maxX = new Int32Array(ids + 1).fill(-1);
  const maxY = new Int32Array(ids + 1).fill(-1);
  const sumX = new Float64Array(ids + 1);
  const sumY = new Float64Array(ids + 1);
  for (let r = 0; r < count; r++) {
    const id = idOf[runRoot(parent, r)]!;
    const y = row[r]!;
    const a = x0[r]!;
    const b = x1[r]!;
    const len = b - a;
    labels.fill(id, y * width + a, y * width + b);
    areas[id]! += len;
    if (a < minX[id]!) minX[id] = a;
    if (b - 1 > maxX[id]!) maxX[id] = b - 1;
    if (y < minY[id]!) minY[id] = y;
    if (y > maxY[id]!) maxY[id] = y;
    sumX[id]! += ((a + b - 1) * len) / 2;
    sumY[id]! += y * len;
  }
  // index 0 (the background) holds zeros, as before
  minX[0] = 0;
  minY[0] = 0;
  maxX[0] = 0;
  maxY[0] = 0;
  return { labels, count: ids, areas, minX, minY, maxX, maxY, sumX, sumY };
}

/** The union-find root of run `r`, halving the path on the way. */
function runRoot(parent: Int32Array, r: number): number {
  while (parent[r] !== r) {
    parent[r] = parent[parent[r]!]!;
    r = parent[r]!;
  }
  return r;
}

/** Drops connected regions smaller than `minArea` pixels. */
export function removeSmall(mask: Uint8Array, width: number, height: number, minArea: number): Uint8Array {
  const c = components(mask, width, height, 8);
  const out = new Uint8Array(mask.length);
  for (let i = 0; i < out.length; i++) {
    const id = c.labels[i]!;
    if (id !== 0 && c.areas[id]! >= minArea) out[i] = 1;
  }
  return out;
}

/**
 * Connected regions as row runs: each maximal horizontal run of pixels equal to `value` is one entry, and
 * runs that touch (4- or 8-connected) share a union-find root. Far fewer steps than a pixel flood when regions
 * are large (the background of a photo, a slice's lesions). `rootOf(r)` is final once built.
 */
export interface Runs {
  count: number;
  row: Int32Array;
  /** first pixel and one past the last, in the row */
  x0: Int32Array;
  x1: Int32Array;
  rootOf: (run: number) => number;
  /** whether the run's region reaches the image border */
  border: (run: number) => boolean;
}

export function labelRuns(mask: Uint8Array, width: number, height: number, value: 0 | 1, connectivity: 4 | 8): Runs {
  // the runs are counted first: arrays for the worst case (every other pixel a run) were 6.5 MB a photo of
  // garbage, and the collections it drove (issue 22, speed)
  const cap = countRuns(mask, width, height, value);
  const row = new Int32Array(cap);
  const x0 = new Int32Array(cap);
  const x1 = new Int32Array(cap);
  const parent = new Int32Array(cap);
  const touches = new Uint8Array(cap);
  const find = (r: number): number => {
    while (parent[r] !== r) {
      parent[r] = parent[parent[r]!]!;
      r = parent[r]!;
    }
    return r;
  };
  const reach = connectivity === 8 ? 1 : 0;
  let count = 0;
  let prevStart = 0;
  let prevEnd = 0;
  for (let y = 0; y < height; y++) {
    const o = y * width;
    const start = count;
    let x = 0;
    while (x < width) {
      while (x < width && mask[o + x] !== value) x++;
      if (x >= width) break;
      const a = x;
      while (x < width && mask[o + x] === value) x++;
      row[count] = y;
      x0[count] = a;
      x1[count] = x;
      parent[count] = count;
      touches[count] = y === 0 || y === height - 1 || a === 0 || x === width ? 1 : 0;
      count++;
    }
    // join with the runs of the row above that overlap (diagonal neighbours too with 8-connectivity)
    let p = prevStart;
    for (let c = start; c < count; c++) {
      while (p < prevEnd && x1[p]! + reach <= x0[c]!) p++;
      for (let q = p; q < prevEnd && x0[q]! < x1[c]! + reach; q++) {
        const ra = find(c);
        const rb = find(q);
        if (ra !== rb) parent[ra] = rb;
      }
    }
    prevStart = start;
    prevEnd = count;
  }
  for (let r = 0; r < count; r++) {
    const root = find(r);
    parent[r] = root;
    if (touches[r]) touches[root] = 1;
  }
  return { count, row, x0, x1, rootOf: (r) => parent[r]!, border: (r) => touches[parent[r]!] === 1 };
}

/** The number of maximal horizontal runs of `value`. */
function countRuns(mask: Uint8Array, width: number, height: number, value: 0 | 1): number {
  let runs = 0;
  for (let y = 0; y < height; y++) {
    const o = y * width;
    let inside = false;
    for (let x = 0; x < width; x++) {
      const on = mask[o + x] === value;
      if (on && !inside) runs++;
      inside = on;
    }
  }
  return runs;
}

/** Fills holes: background regions that do not reach the image border become foreground. */
export function fillHoles(mask: Uint8Array, width: number, height: number): Uint8Array {
  const out = mask.slice();
  const runs = labelRuns(mask, width, height, 0, 4);
  for (let r = 0; r < runs.count; r++) {
    if (runs.border(r)) continue;
    const o = runs.row[r]! * width;
    out.fill(1, o + runs.x0[r]!, o + runs.x1[r]!);
  }
  return out;
}

export function countOnes(mask: Uint8Array): number {
  let s = 0;
  for (let i = 0; i < mask.length; i++) s += mask[i]!;
  return s;
}

export function and(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = a[i]! & b[i]!;
  return out;
}
