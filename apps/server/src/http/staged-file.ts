import crypto from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

/** An incoming file written to a temp file, with its sha256 and first bytes (for sniffing). */
export interface StagedFile {
  path: string;
  size: number;
  sha256: string;
  head: Buffer;
  /** CRC-32 of the bytes, when asked for (ZIP entries are checked against their header's) */
  crc32?: number;
}

export class TooLargeError extends Error {}

export interface StageOptions {
  /** false: no sha256 (a ZIP archive itself needs none, only its entries do) */
  hash?: boolean;
  /** a pass-through that also sees every byte on its way to the file (the ZIP early-entry scanner) */
  through?: () => Transform;
  /** also compute the CRC-32 (a ZIP entry's integrity check) */
  crc32?: boolean;
}

const HEAD_BYTES = 64;

/**
 * Streams `source` to a new temp file in `tempDir`, hashing on the way (never whole in memory).
 * Stops with TooLargeError beyond `maxBytes`. On any failure the temp file is removed.
 */
export async function stageStream(
  source: Readable,
  tempDir: string,
  maxBytes = Number.POSITIVE_INFINITY,
  options: StageOptions = {},
): Promise<StagedFile> {
  const file = path.join(tempDir, `${crypto.randomUUID()}.part`);
  // Skipping the hash of a ZIP archive saves a pass over gigabytes.
  const hash = options.hash === false ? undefined : crypto.createHash('sha256');
  const headChunks: Buffer[] = [];
  let headLength = 0;
  let size = 0;
  let crc = 0;
  const meter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new TooLargeError(`larger than ${maxBytes} bytes`));
      hash?.update(chunk);
      if (options.crc32) crc = zlib.crc32(chunk, crc);
      if (headLength < HEAD_BYTES) {
        headChunks.push(chunk.subarray(0, HEAD_BYTES - headLength));
        headLength += Math.min(chunk.length, HEAD_BYTES - headLength);
      }
      done(null, chunk);
    },
  });
  const write = fs.createWriteStream(file, { flags: 'wx' });
  try {
    await (options.through ? pipeline(source, meter, options.through(), write) : pipeline(source, meter, write));
  } catch (err) {
    // A source that fails at once rejects the pipeline while the file is still being opened: wait until the
    // write stream has closed, or the file appears after the rm below and stays for good (found by fuzzing).
    if (!write.closed) await new Promise<void>((resolve) => write.once('close', () => resolve()));
    await fsp.rm(file, { force: true });
    throw err;
  }
  const staged: StagedFile = { path: file, size, sha256: hash?.digest('hex') ?? '', head: Buffer.concat(headChunks) };
  if (options.crc32) staged.crc32 = crc >>> 0;
  return staged;
}

export async function discard(files: (StagedFile | undefined)[]): Promise<void> {
  await Promise.all(files.map((f) => (f ? fsp.rm(f.path, { force: true }) : undefined)));
}
