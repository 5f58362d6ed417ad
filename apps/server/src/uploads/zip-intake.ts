import fs from 'node:fs';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type yauzl from 'yauzl';
import { ApiError } from '../http/errors.js';
import { displayName, isPlainName, NAME_PROBLEM } from '../names/names.js';
import { isStorageFull } from '../storage/storage-full.js';
import { baseName, decodeZipName, UNNAMED } from '../names/file-names.js';
import { discard, stageStream, TooLargeError, type StagedFile } from '../http/staged-file.js';
import { UPLOAD_LIMITS } from './upload-limits.js';

/** One entry of a ZIP: staged to a temp file, or an error reported by its base name. */
export type ZipItem = { name: string; staged: StagedFile } | { name: string; error: { code: string; detail: string } };

export interface ZipLimits {
  /** per entry, uncompressed (MAX_UPLOAD_MB) */
  maxEntryBytes: number;
  maxEntries: number;
  maxTotalBytes: number;
}

const invalidZip = (detail: string) => new ApiError(400, 'invalid_zip', detail);

async function openZip(file: string): Promise<yauzl.ZipFile> {
  // Loaded on the first ZIP upload, not while the server starts.
  const { open } = await import('yauzl');
  return new Promise((resolve, reject) => {
    open(file, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: true }, (err, zip) => {
      if (err || !zip) reject(invalidZip(`The file is not a readable ZIP archive: ${err?.message ?? 'unknown error'}`));
      else resolve(zip);
    });
  });
}

/** yauzl finds where an entry's data starts (after its local header); the typings lack this call. */
function dataStart(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<number> {
  const withHeader = zip as unknown as {
    readLocalFileHeader(
      e: yauzl.Entry,
      o: { minimal: true },
      cb: (err: Error | null, h?: { fileDataStart: number }) => void,
    ): void;
  };
  return new Promise((resolve, reject) => {
    withHeader.readLocalFileHeader(entry, { minimal: true }, (err, header) =>
      err || !header ? reject(err ?? new Error('no header')) : resolve(header.fileDataStart),
    );
  });
}

/**
 * An entry's bytes, read straight from the archive file in 1 MB chunks (yauzl's own streams read 16 KB
 * at a time, which costs more CPU than the copy itself), inflated when deflated. The caller checks the
 * result against the declared size, as yauzl would.
 */
async function openEntry(zip: yauzl.ZipFile, entry: yauzl.Entry, file: string): Promise<Readable> {
  if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
    throw new Error(`unsupported compression method ${entry.compressionMethod}`);
  }
  const start = await dataStart(zip, entry);
  const raw = fs.createReadStream(file, { start, end: start + entry.compressedSize - 1, highWaterMark: 1 << 20 });
  if (entry.compressionMethod === 0) return raw;
  const inflate = zlib.createInflateRaw({ chunkSize: 256 * 1024 });
  raw.on('error', (err) => inflate.destroy(err));
  return raw.pipe(inflate);
}

/**
 * The byte ranges of an archive's entries (local header to the end of the data), kept sorted by start: `add` says
 * whether a new range is clear of all before it. A well-formed ZIP's entries never share a byte.
 */
export class ByteSpans {
  private readonly starts: number[] = [];
  private readonly ends: number[] = [];

  add(start: number, end: number): boolean {
    let lo = 0;
    let hi = this.starts.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.starts[mid]! < start) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0 && this.ends[lo - 1]! > start) return false;
    if (lo < this.starts.length && this.starts[lo]! < Math.max(end, start + 1)) return false;
    this.starts.splice(lo, 0, start);
    this.ends.splice(lo, 0, Math.max(end, start + 1));
    return true;
  }
}

/** macOS and Windows bookkeeping files that are never photos and not worth an error line. */
function isBookkeeping(rawPath: string, name: string): boolean {
  return rawPath.startsWith('__MACOSX/') || name.startsWith('._') || name === '.DS_Store' || name === 'Thumbs.db';
}

/**
 * Reads a ZIP entry by entry (never whole in memory): each file entry streams to a temp file,
 * directories are flattened away. Entries over the size or compression-ratio limits become
 * per-entry errors; too many entries or too many bytes in all is a 413 and nothing is kept.
 * `onItem` is called as each entry is staged, so decoding can overlap the extraction.
 */
export async function readZip(
  file: string,
  tempDir: string,
  limits: ZipLimits,
  onItem?: (item: ZipItem) => void,
  /** an entry already staged while the archive arrived (zip-early-entries.ts), if any */
  takeEarly?: (entry: yauzl.Entry) => StagedFile | undefined,
): Promise<ZipItem[]> {
  const zip = await openZip(file);
  const items: ZipItem[] = [];
  const staged = () => items.flatMap((i) => ('staged' in i ? [i.staged] : []));
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new ApiError(
      413,
      'too_large',
      `The ZIP has ${zip.entryCount} entries; at most ${limits.maxEntries} are accepted`,
    );
  }
  let total = 0;
  const spans = new ByteSpans();
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (err: Error) => reject(invalidZip(`The ZIP archive is corrupt: ${err.message}`)));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        handleEntry(entry).then(
          () => zip.readEntry(),
          (err) => {
            zip.close();
            reject(err);
          },
        );
      });
      zip.readEntry();
    });
  } catch (err) {
    await discard(staged());
    throw err;
  }
  return items;

  async function handleEntry(entry: yauzl.Entry): Promise<void> {
    const rawPath = decodeZipName(entry.fileName as unknown as Buffer, entry.extraFields).replace(/\\/g, '/');
    if (rawPath.endsWith('/')) return; // a directory: folders inside the ZIP are flattened
    const name = baseName(rawPath) || UNNAMED;
    if (isBookkeeping(rawPath, name)) return;
    const add = (item: ZipItem) => {
      items.push(item);
      onItem?.(item);
    };
    const fail = (code: string, detail: string) => add({ name: displayName(name), error: { code, detail } });
    // Refused, not cleaned: the entry is reported and the rest of the archive goes in.
    if (!isPlainName(name)) return fail('invalid_name', `The entry's name ${NAME_PROBLEM}`);
    const size = entry.uncompressedSize;
    if (size > limits.maxEntryBytes) return fail('too_large', `The entry is larger than MAX_UPLOAD_MB (${size} bytes)`);
    total += size;
    if (total > limits.maxTotalBytes) {
      throw new ApiError(413, 'too_large', `The ZIP holds more than ${limits.maxTotalBytes} bytes uncompressed`);
    }
    if (
      size >= UPLOAD_LIMITS.compressionRatioMinBytes &&
      size > entry.compressedSize * UPLOAD_LIMITS.maxCompressionRatio
    ) {
      return fail(
        'suspicious_compression',
        `The entry expands more than ${UPLOAD_LIMITS.maxCompressionRatio}:1 (a zip bomb?)`,
      );
    }
    if (entry.generalPurposeBitFlag & 0x1) return fail('not_an_image', 'The entry is encrypted');
    if (size === 0) return fail('not_an_image', 'The file is empty');
    // Entries whose bytes overlap (3 000 entries pointing at one stored file became 3 000 rows: issue 26, item 7)
    // make the archive a crafted one: refused whole, before more of it is staged.
    let start: number;
    try {
      start = await dataStart(zip, entry);
    } catch (err) {
      return fail('corrupt_entry', `The entry's header cannot be read: ${err instanceof Error ? err.message : err}`);
    }
    if (!spans.add(entry.relativeOffsetOfLocalHeader, start + entry.compressedSize)) {
      throw invalidZip('The ZIP is malformed: two entries overlap (they point at the same bytes)');
    }
    const early = takeEarly?.(entry);
    if (early) return add({ name, staged: early });
    let extracted: StagedFile;
    try {
      // Never more than the declared size (already checked against the limits): a lying header stops here.
      extracted = await stageStream(await openEntry(zip, entry, file), tempDir, size, { crc32: true });
    } catch (err) {
      // No room for the entry is no fault of the archive: the whole request is a 507 and nothing is kept.
      if (isStorageFull(err)) throw err;
      if (err instanceof TooLargeError)
        return fail('corrupt_entry', 'The entry holds more bytes than its header declares');
      return fail(
        'corrupt_entry',
        `The entry could not be extracted: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (extracted.size !== size) {
      await discard([extracted]);
      return fail('corrupt_entry', 'The entry holds fewer bytes than its header declares');
    }
    if (extracted.crc32 !== entry.crc32 >>> 0) {
      await discard([extracted]);
      return fail('corrupt_entry', 'The entry is damaged: its CRC-32 does not match its header');
    }
    add({ name, staged: extracted });
  }
}
