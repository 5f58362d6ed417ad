import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { ApiError } from './errors.js';
import { isPlainName, NAME_PROBLEM } from '../names/names.js';
import { baseName } from '../names/file-names.js';
import { MultipartHeaderCheck } from './multipart-header-check.js';
import { discard, stageStream, TooLargeError, type StagedFile, type StageOptions } from './staged-file.js';
import { crashPoint } from '../util/crash-point.js';

export interface ReceivedFile {
  /** the part's field name */
  field: string;
  /** the client's file name, undecoded */
  filename: string;
  staged: StagedFile;
}

export interface MultipartIntake {
  files: ReceivedFile[];
  fields: Record<string, string>;
}

/**
 * Reads a multipart request part by part: every file part streams into a temp file (hashed on the
 * way), the text fields are collected. Fields may come before or after the files. `onFile` lets
 * the caller start work on a file while the next one is still arriving. On any error every temp
 * file already written is removed.
 */
export async function receiveMultipart(
  req: FastifyRequest,
  tempDir: string,
  maxFiles: number,
  onFile?: (file: ReceivedFile) => void,
  options: StageOptions & { maxFileBytes?: number } = {},
): Promise<MultipartIntake> {
  if (!req.isMultipart()) {
    throw new ApiError(415, 'unsupported_media_type', 'Expected a multipart/form-data body');
  }
  const files: ReceivedFile[] = [];
  const fields: Record<string, string> = {};
  // Watches the raw part headers for what the parser would accept mangled (a CR or LF in a file name).
  const boundary = MultipartHeaderCheck.boundaryOf(req.headers['content-type']);
  const check = boundary ? new MultipartHeaderCheck(boundary) : undefined;
  const malformed = () => {
    const problem = check?.problem;
    return problem
      ? new ApiError(400, 'invalid_multipart', `The multipart body is malformed: ${problem.detail}`, {
          fields: { [problem.field]: problem.detail },
        })
      : undefined;
  };
  // The file part being staged now: stopped (its temp file removed) as soon as the body proves malformed.
  let current: Readable | undefined;
  let refuse: (err: ApiError) => void = () => undefined;
  const refused = new Promise<never>((_resolve, reject) => (refuse = reject));
  refused.catch(() => undefined);
  const watch = (chunk: Buffer) => {
    if (!check || check.problem) return;
    check.push(chunk);
    const bad = malformed();
    if (bad) {
      current?.destroy(bad);
      refuse(bad);
    }
  };
  req.raw.on('data', watch);
  // Iterated by hand, never with for-await: leaving a for-await early calls the iterator's return(), which
  // waits for a part nobody reads while the parser waits for the reader: the request was never answered.
  const parts = req.parts({ limits: { files: maxFiles } })[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await Promise.race([parts.next(), refused]);
      if (next.done) break;
      const part = next.value;
      if (part.type === 'file') {
        // A name that would show as something else (control or bidirectional-override characters) is
        // refused before a byte of the file is stored.
        if (!isPlainName(baseName(part.filename ?? ''))) {
          throw new ApiError(400, 'invalid_name', `The file name ${NAME_PROBLEM}`, {
            fields: { [part.fieldname]: `file name ${NAME_PROBLEM}` },
          });
        }
        current = part.file as Readable;
        // A route's own cap (a label image, a sheet) stops the file there: 413, its temp file gone.
        const cap = options.maxFileBytes ?? Number.POSITIVE_INFINITY;
        const staged = await stageStream(current, tempDir, cap, options).catch((err: unknown) => {
          if (err instanceof TooLargeError)
            throw new ApiError(
              413,
              'too_large',
              `"${part.filename}" is larger than ${Math.round(cap / 1024 / 1024)} MB`,
            );
          throw err;
        });
        current = undefined;
        // @fastify/multipart marks a part cut at fileSize instead of failing when so configured.
        if ((part.file as { truncated?: boolean }).truncated) {
          await discard([staged]);
          throw new ApiError(413, 'too_large', `"${part.filename}" is larger than MAX_UPLOAD_MB`);
        }
        const file = { field: part.fieldname, filename: part.filename ?? '', staged };
        files.push(file);
        onFile?.(file);
        crashPoint('upload-staged');
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
    const bad = malformed();
    if (bad) throw bad;
  } catch (err) {
    await discard(files.map((f) => f.staged));
    throw (
      malformed() ??
      (isMalformedBody(err)
        ? new ApiError(400, 'invalid_multipart', `The multipart body is malformed: ${(err as Error).message}`)
        : err)
    );
  } finally {
    req.raw.off('data', watch);
  }
  return { files, fields };
}

/**
 * The multipart parser's own complaints (a body cut off, a broken part header) carry no error code;
 * file-system failures (errno) and our or Fastify's coded errors keep their own meaning.
 */
function isMalformedBody(err: unknown): boolean {
  return err instanceof Error && !(err instanceof ApiError) && !('code' in err) && !('syscall' in err);
}
