import { LABEL_CLASSES } from './label-classes';
import {
  countClasses,
  readRect,
  stampLine,
  takeProposalRegion,
  unionRect,
  writeRect,
  type Grid,
  type Rect,
} from './label-raster';

/** One undoable change: the rectangle it touched, before and after. */
interface Patch {
  id: number;
  rect: Rect;
  before: Uint8Array;
  after: Uint8Array;
}

/** Undo steps kept (each holds only the rectangle its stroke touched). */
const HISTORY_LIMIT = 100;

/** RGBA of each value 0-4 in the label layer (0 transparent). */
const PALETTE: number[][] = [[0, 0, 0, 0], ...LABEL_CLASSES.map((c) => [...c.colour, 255])];

/**
 * The labels being painted, outside React so a stroke never re-renders the page: the grid, its coloured canvas
 * (only the rectangle a stroke touches is redrawn, once per frame), the engine's proposal as a hatched canvas,
 * and the undo history. `onChange` tells the page when counts or undo state may have changed.
 */
export class LabelLayer {
  readonly grid: Grid;
  readonly canvas: HTMLCanvasElement;
  readonly proposalCanvas: HTMLCanvasElement;
  proposal: Grid | null = null;
  private readonly ctx: CanvasRenderingContext2D;
  private readonly image: ImageData;
  private dirty: Rect | null = null;
  private frame = 0;
  private undoStack: Patch[] = [];
  private redoStack: Patch[] = [];
  private nextId = 1;
  private strokeStart: Uint8Array | null = null;
  private strokeRect: Rect | null = null;
  private savedId = 0;
  onChange: () => void = () => undefined;

  constructor(width: number, height: number) {
    this.grid = { width, height, data: new Uint8Array(width * height) };
    this.canvas = makeCanvas(width, height);
    this.proposalCanvas = makeCanvas(width, height);
    this.ctx = this.canvas.getContext('2d')!;
    this.image = this.ctx.createImageData(width, height);
  }

  /** Replaces the labels (loaded from the server); history starts afresh and nothing is unsaved. */
  load(data: Uint8Array): void {
    this.grid.data.set(data);
    this.undoStack = [];
    this.redoStack = [];
    this.savedId = 0;
    this.invalidate({ x: 0, y: 0, width: this.grid.width, height: this.grid.height });
    this.onChange();
  }

  setProposal(data: Uint8Array): void {
    const { width, height } = this.grid;
    this.proposal = { width, height, data };
    const ctx = this.proposalCanvas.getContext('2d')!;
    const image = ctx.createImageData(width, height);
    // Hatched (diagonal stripes), so the proposal never looks like a painted label.
    for (let y = 0; y < height; y++) {
      for (let x = 0; x < width; x++) {
        const i = y * width + x;
        const v = data[i]!;
        if (v === 0 || ((x + y) & 7) > 3) continue;
        const c = PALETTE[v] ?? PALETTE[0]!;
        image.data[i * 4] = c[0]!;
        image.data[i * 4 + 1] = c[1]!;
        image.data[i * 4 + 2] = c[2]!;
        image.data[i * 4 + 3] = 255;
      }
    }
    ctx.putImageData(image, 0, 0);
  }

  beginStroke(): void {
    this.strokeStart = this.grid.data.slice();
    this.strokeRect = null;
  }

  /**
   * Paints (value 1-4) or erases (0) along a segment of the current stroke, in grid pixels; `only` limits it to
   * the pixels of one class (the eraser set to one class).
   */
  strokeTo(x0: number, y0: number, x1: number, y1: number, radius: number, value: number, only?: number): void {
    if (!this.strokeStart) this.beginStroke();
    const rect = stampLine(this.grid, x0, y0, x1, y1, radius, value, only);
    if (!rect) return;
    this.strokeRect = unionRect(this.strokeRect, rect);
    this.invalidate(rect);
  }

  endStroke(): void {
    const start = this.strokeStart;
    const rect = this.strokeRect;
    this.strokeStart = null;
    this.strokeRect = null;
    if (!start || !rect) return;
    const before = readRect({ ...this.grid, data: start }, rect);
    const after = readRect(this.grid, rect);
    if (before.every((v, i) => v === after[i])) return;
    this.push({ id: this.nextId++, rect, before, after });
  }

  /** Takes the proposal's connected region under (x, y); false when there was nothing to take. */
  takeProposal(x: number, y: number): boolean {
    if (!this.proposal) return false;
    const before = this.grid.data.slice();
    const rect = takeProposalRegion(this.grid, this.proposal, x, y);
    if (!rect) return false;
    this.push({
      id: this.nextId++,
      rect,
      before: readRect({ ...this.grid, data: before }, rect),
      after: readRect(this.grid, rect),
    });
    this.invalidate(rect);
    return true;
  }

  /** Clears every label as one undoable step. */
  clearAll(): void {
    const rect = { x: 0, y: 0, width: this.grid.width, height: this.grid.height };
    const before = this.grid.data.slice();
    this.grid.data.fill(0);
    this.push({ id: this.nextId++, rect, before, after: this.grid.data.slice() });
    this.invalidate(rect);
  }

  undo(): void {
    const patch = this.undoStack.pop();
    if (!patch) return;
    writeRect(this.grid, patch.rect, patch.before);
    this.redoStack.push(patch);
    this.invalidate(patch.rect);
    this.onChange();
  }

  redo(): void {
    const patch = this.redoStack.pop();
    if (!patch) return;
    writeRect(this.grid, patch.rect, patch.after);
    this.undoStack.push(patch);
    this.invalidate(patch.rect);
    this.onChange();
  }

  get canUndo(): boolean {
    return this.undoStack.length > 0;
  }
  get canRedo(): boolean {
    return this.redoStack.length > 0;
  }
  /** Changes since the last load or save. */
  get unsaved(): boolean {
    return (this.undoStack.at(-1)?.id ?? 0) !== this.savedId;
  }
  markSaved(): void {
    this.savedId = this.undoStack.at(-1)?.id ?? 0;
    this.onChange();
  }
  counts(): number[] {
    return countClasses(this.grid.data);
  }

  /** The labels as a PNG (grey values 0-4 in every colour channel; the server reads the red one). */
  toPng(): Promise<Blob> {
    const { width, height, data } = this.grid;
    const canvas = makeCanvas(width, height);
    const ctx = canvas.getContext('2d')!;
    const image = ctx.createImageData(width, height);
    for (let i = 0; i < data.length; i++) {
      const v = data[i]!;
      image.data[i * 4] = v;
      image.data[i * 4 + 1] = v;
      image.data[i * 4 + 2] = v;
      image.data[i * 4 + 3] = 255;
    }
    ctx.putImageData(image, 0, 0);
    return new Promise((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('PNG encoding failed'))), 'image/png'),
    );
  }

  dispose(): void {
    cancelAnimationFrame(this.frame);
    this.onChange = () => undefined;
  }

  private push(patch: Patch): void {
    this.undoStack.push(patch);
    if (this.undoStack.length > HISTORY_LIMIT) this.undoStack.shift();
    this.redoStack = [];
    this.onChange();
  }

  /** Redraws the rectangle on the next frame (strokes send many segments per frame). */
  private invalidate(rect: Rect): void {
    this.dirty = unionRect(this.dirty, rect);
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      const r = this.dirty;
      this.dirty = null;
      if (r) this.paint(r);
    });
  }

  private paint(rect: Rect): void {
    const { width, data } = this.grid;
    const out = this.image.data;
    for (let y = rect.y; y < rect.y + rect.height; y++) {
      for (let x = rect.x; x < rect.x + rect.width; x++) {
        const i = y * width + x;
        const c = PALETTE[data[i]!] ?? PALETTE[0]!;
        out[i * 4] = c[0]!;
        out[i * 4 + 1] = c[1]!;
        out[i * 4 + 2] = c[2]!;
        out[i * 4 + 3] = c[3]!;
      }
    }
    this.ctx.putImageData(this.image, 0, 0, rect.x, rect.y, rect.width, rect.height);
  }
}

function makeCanvas(width: number, height: number): HTMLCanvasElement {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  return canvas;
}

/**
 * A label PNG (grey or palette; red channel) read onto the painter's grid, nearest neighbour, so a label image
 * at the photo's size and one at the grid's both land pixel-exact enough for painting.
 */
export async function decodeLabelPng(blob: Blob, width: number, height: number): Promise<Uint8Array> {
  const bitmap = await createImageBitmap(blob, { colorSpaceConversion: 'none', premultiplyAlpha: 'none' });
  const canvas = makeCanvas(width, height);
  const ctx = canvas.getContext('2d', { willReadFrequently: true })!;
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(bitmap, 0, 0, width, height);
  bitmap.close();
  const rgba = ctx.getImageData(0, 0, width, height).data;
  const out = new Uint8Array(width * height);
  for (let i = 0; i < out.length; i++) {
    const v = rgba[i * 4]!;
    out[i] = v <= 4 ? v : 0;
  }
  return out;
}
