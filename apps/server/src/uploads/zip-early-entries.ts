import { PassThrough, Transform, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import type yauzl from 'yauzl';
import { discard, stageStream, type StagedFile } from '../http/staged-file.js';
import type { ZipLimits } from './zip-intake.js';
import { UPLOAD_LIMITS } from './upload-limits.js';

/** An entry staged from its local header while the ZIP was still arriving. */
interface EarlyEntry {
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  crc32: number;
  staged: StagedFile;
}

const LOCAL_HEADER = 0x04034b50;
const LOCAL_HEADER_BYTES = 30;

type State =
  | { kind: 'header' }
  | { kind: 'data'; offset: number; header: Omit<EarlyEntry, 'staged'>; remaining: number; sink?: EntrySink }
  | { kind: 'done' };

/** Where one entry's bytes go: a temp file (inflated when deflated), its size capped at the declared one. */
interface EntrySink {
  input: PassThrough;
  staged: Promise<StagedFile>;
}

/**
 * Stages ZIP entries while the archive is still being received, so decoding overlaps the upload
 * (uploading a 2.7 GB ZIP takes as long as decoding its 1 000 photos). It reads the local file
 * headers in stream order; nothing here is trusted: when the whole archive has arrived, yauzl reads
 * the central directory as always, and an entry is adopted only if a staged entry starts at the same
 * offset with the same method, sizes and CRC (`take`). Anything unusual (data descriptors, ZIP64,
 * encryption, other methods, a size over the limits) ends the early pass or skips the entry, and
 * yauzl extracts it the ordinary way. `onStaged` lets the caller start decoding.
 */
export class ZipEarlyEntries {
  private readonly entries = new Map<number, EarlyEntry>();
  private readonly unused = new Set<StagedFile>();
  private stagedBytes = 0;
  private stagedCount = 0;
  /** discardUnused ran: an entry finishing later is removed at once */
  private finished = false;

  constructor(
    private readonly tempDir: string,
    private readonly limits: ZipLimits,
    private readonly onStaged: (staged: StagedFile) => void,
  ) {}

  /** A pass-through stream that sees every byte of the archive on its way to the temp file. */
  scanner(): Transform {
    let state: State = { kind: 'header' };
    let position = 0; // offset in the archive of pending[0]
    let pending: Buffer = Buffer.alloc(0);
    let closed = false; // ended or destroyed: no new entry starts
    let inflight: Promise<void> = Promise.resolve();

    const step = async (): Promise<boolean> => {
      if (closed || state.kind === 'done') {
        pending = Buffer.alloc(0);
        return false;
      }
      if (state.kind === 'header') {
        if (pending.length < LOCAL_HEADER_BYTES) return false;
        if (pending.readUInt32LE(0) !== LOCAL_HEADER) {
          state = { kind: 'done' }; // the central directory (or something unexpected): the rest is yauzl's
          return true;
        }
        const nameLength = pending.readUInt16LE(26);
        const extraLength = pending.readUInt16LE(28);
        const headerLength = LOCAL_HEADER_BYTES + nameLength + extraLength;
        if (pending.length < headerLength) return false;
        const flags = pending.readUInt16LE(6);
        const header = {
          method: pending.readUInt16LE(8),
          crc32: pending.readUInt32LE(14),
          compressedSize: pending.readUInt32LE(18),
          uncompressedSize: pending.readUInt32LE(22),
        };
        // Sizes after the data (bit 3), ZIP64 markers, encryption: the data's end is not known here.
        if (flags & 0x9 || header.compressedSize === 0xffffffff || header.uncompressedSize === 0xffffffff) {
          state = { kind: 'done' };
          return true;
        }
        const offset = position;
        pending = pending.subarray(headerLength);
        position += headerLength;
        state = { kind: 'data', offset, header, remaining: header.compressedSize, sink: this.openSink(header) };
        return true;
      }
      // Entry data.
      const take = Math.min(state.remaining, pending.length);
      if (take > 0) {
        const chunk = pending.subarray(0, take);
        pending = pending.subarray(take);
        position += take;
        state.remaining -= take;
        const sink = state.sink;
        if (sink && !sink.input.destroyed && !sink.input.write(chunk)) {
          // Backpressure from the entry's temp file; a failed entry closes its input, which ends the wait.
          await new Promise<void>((resolve) => {
            const settle = () => {
              sink.input.off('drain', settle);
              sink.input.off('close', settle);
              resolve();
            };
            sink.input.once('drain', settle);
            sink.input.once('close', settle);
          });
        }
      }
      if (state.remaining > 0) return false;
      await this.closeSink(state.offset, state.header, state.sink);
      state = closed ? { kind: 'done' } : { kind: 'header' };
      return !closed;
    };

    const feed = async (chunk: Buffer) => {
      if (closed || state.kind === 'done') return;
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      try {
        while (await step());
      } catch {
        // Early staging is only a head start: on any surprise, yauzl does the rest.
        if (state.kind === 'data' && state.sink) await this.abandon(state.sink);
        state = { kind: 'done' };
      }
    };

    /** After the last chunk or a breakdown: waits for the chunk in hand, then drops a half-staged entry. */
    const close = async () => {
      closed = true;
      await inflight.catch(() => undefined);
      const last = state;
      state = { kind: 'done' };
      if (last.kind === 'data' && last.sink) await this.abandon(last.sink);
    };

    return new Transform({
      transform(chunk: Buffer, _enc, done: TransformCallback) {
        inflight = feed(chunk);
        inflight.then(() => done(null, chunk), done);
      },
      // An archive cut off inside an entry: that partial entry is of no use.
      flush(done: TransformCallback) {
        close().then(() => done(), done);
      },
      // The upload broke off (client gone, a limit hit): the entry being staged is removed too.
      destroy(err, done) {
        close().then(
          () => done(err),
          () => done(err),
        );
      },
    });
  }

  /**
   * The staged file for the entry yauzl found, when one was staged from the same local header with the
   * same method, sizes and CRC; each staged file is handed out once (overlapping entries of a crafted
   * ZIP share a header offset).
   */
  take(entry: yauzl.Entry): StagedFile | undefined {
    const early = this.entries.get(entry.relativeOffsetOfLocalHeader);
    if (
      !early ||
      early.method !== entry.compressionMethod ||
      early.compressedSize !== entry.compressedSize ||
      early.uncompressedSize !== entry.uncompressedSize ||
      early.crc32 !== entry.crc32
    ) {
      return undefined;
    }
    this.entries.delete(entry.relativeOffsetOfLocalHeader);
    this.unused.delete(early.staged);
    return early.staged;
  }

  /** Removes every staged file nobody took. */
  async discardUnused(): Promise<void> {
    this.finished = true;
    const files = [...this.unused];
    this.unused.clear();
    this.entries.clear();
    await discard(files);
  }

  private openSink(header: Omit<EarlyEntry, 'staged'>): EntrySink | undefined {
    const { uncompressedSize: size, compressedSize } = header;
    const tooBig =
      size === 0 ||
      size > this.limits.maxEntryBytes ||
      this.stagedBytes + size > this.limits.maxTotalBytes ||
      this.stagedCount >= this.limits.maxEntries ||
      (size >= UPLOAD_LIMITS.compressionRatioMinBytes && size > compressedSize * UPLOAD_LIMITS.maxCompressionRatio);
    if (tooBig || (header.method !== 0 && header.method !== 8)) return undefined; // skipped: yauzl reports it
    this.stagedBytes += size;
    this.stagedCount += 1;
    const input = new PassThrough({ highWaterMark: 1 << 20 });
    const source = header.method === 0 ? input : input.pipe(zlib.createInflateRaw({ chunkSize: 256 * 1024 }));
    if (source !== input) input.on('error', (err) => source.destroy(err));
    input.on('error', () => undefined); // a failure is seen through `staged`
    const staged = stageStream(source, this.tempDir, size, { crc32: true });
    // More bytes than declared or not inflatable: stop taking this entry's bytes (yauzl reports it).
    staged.catch(() => input.destroy());
    return { input, staged };
  }

  private async closeSink(
    offset: number,
    header: Omit<EarlyEntry, 'staged'>,
    sink: EntrySink | undefined,
  ): Promise<void> {
    if (!sink) return;
    sink.input.end();
    let staged: StagedFile;
    try {
      staged = await sink.staged;
    } catch {
      return; // more bytes than declared, or not inflatable: yauzl's pass reports it
    }
    // A damaged entry is left to yauzl's pass, which reports it.
    if (staged.size !== header.uncompressedSize || staged.crc32 !== header.crc32 >>> 0 || this.finished) {
      await discard([staged]);
      return;
    }
    this.entries.set(offset, { ...header, staged });
    this.unused.add(staged);
    this.onStaged(staged);
  }

  private async abandon(sink: EntrySink): Promise<void> {
    // With an error: a plain destroy never ends the inflate stream piped from it, so the entry's temp file
    // stayed open and the request that waits for it was never answered.
    sink.input.destroy(new Error('the ZIP ended inside this entry'));
    const staged = await sink.staged.catch(() => undefined);
    if (staged) await discard([staged]);
  }
}
