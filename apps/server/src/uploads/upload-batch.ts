import fsp from 'node:fs/promises';
import type { ImageFormat } from '../names/image-formats.js';
import { NotAnImageError, probeImage, type ProbedImage } from './image-probe.js';
import { sniffFormat } from './image-sniff.js';
import { isStorageFull, STORAGE_FULL_DETAIL } from '../storage/storage-full.js';
import { discard, type StagedFile } from '../http/staged-file.js';

export type ProbeOutcome = { ok: true; image: ProbedImage } | { ok: false; code: string; detail: string };

/** Where a staged file's decode writes its thumbnail (a temp file beside it). */
export function thumbnailPathOf(stagedPath: string): string {
  return `${stagedPath}.thumb.webp`;
}

/** One file of an upload request, in the order it was sent. */
export interface Candidate {
  /** the name as sent (base name only) */
  name: string;
  staged?: StagedFile;
  /** settles once the file is decoded (never rejects); absent for files that failed before */
  outcome: Promise<ProbeOutcome>;
}

/**
 * The files of one upload request while they arrive: each is sniffed, then decoded in the
 * background (bounded concurrency) while the next one is still streaming in. Identical bytes
 * are decoded once.
 */
export class UploadBatch {
  readonly candidates: Candidate[] = [];
  private readonly prefetched: { staged: StagedFile; outcome: Promise<ProbeOutcome> }[] = [];
  private readonly probes = new Map<string, Promise<ProbeOutcome>>();

  addFile(name: string, staged: StagedFile): void {
    this.candidates.push({ name, staged, outcome: this.probe(staged) });
  }

  /**
   * Starts decoding a file that may become a candidate later (a ZIP entry staged while the archive
   * still arrives); `addFile` with the same bytes reuses the decode. Unused ones go in `discardAll`.
   */
  prefetch(staged: StagedFile): void {
    this.prefetched.push({ staged, outcome: this.probe(staged) });
  }

  private probe(staged: StagedFile): Promise<ProbeOutcome> {
    const format: ImageFormat | null = sniffFormat(staged.head);
    if (staged.size === 0) return Promise.resolve({ ok: false, code: 'not_an_image', detail: 'The file is empty' });
    if (format === null) {
      return Promise.resolve({
        ok: false,
        code: 'not_an_image',
        detail: 'Not a JPEG, PNG, WebP, TIFF or GIF image (the format is read from the bytes, not the name)',
      });
    }
    const known = this.probes.get(staged.sha256);
    if (known) return known;
    const outcome = probeImage(staged.path, format, thumbnailPathOf(staged.path)).then(
      (image): ProbeOutcome => ({ ok: true, image }),
      (err): ProbeOutcome =>
        // A thumbnail that could not be written is a full disk, not a bad image.
        isStorageFull(err)
          ? { ok: false, code: 'storage_full', detail: STORAGE_FULL_DETAIL }
          : {
              ok: false,
              code: 'not_an_image',
              detail: err instanceof NotAnImageError ? err.message : 'The image could not be decoded',
            },
    );
    this.probes.set(staged.sha256, outcome);
    return outcome;
  }

  /** Adds a file decoded earlier (a kept upload brought back for the duplicate choice: no second decode). */
  addProbed(name: string, staged: StagedFile, image: ProbedImage): void {
    this.candidates.push({ name, staged, outcome: Promise.resolve({ ok: true, image }) });
  }

  addError(name: string, code: string, detail: string): void {
    this.candidates.push({ name, outcome: Promise.resolve({ ok: false, code, detail }) });
  }

  /** Waits for every decode, then removes every temp file still there (stored ones were moved). */
  async discardAll(): Promise<void> {
    const all = [...this.candidates, ...this.prefetched];
    const outcomes = await Promise.all(all.map((c) => c.outcome));
    await discard(all.map((c) => c.staged));
    await Promise.all(outcomes.map((o) => (o.ok ? fsp.rm(o.image.thumbnailPath, { force: true }) : undefined)));
  }
}
