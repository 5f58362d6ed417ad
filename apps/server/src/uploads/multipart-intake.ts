import type { FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { ApiError } from '../http/errors.js';
import { discard, stageStream, type StagedFile, type StageOptions } from './staged-file.js';

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
  options: StageOptions = {},
): Promise<MultipartIntake> {
  if (!req.isMultipart()) {
    throw new ApiError(415, 'unsupported_media_type', 'Expected a multipart/form-data body');
  }
  const files: ReceivedFile[] = [];
  const fields: Record<string, string> = {};
  try {
    for await (const part of req.parts({ limits: { files: maxFiles } })) {
      if (part.type === 'file') {
        const staged = await stageStream(part.file as Readable, tempDir, Number.POSITIVE_INFINITY, options);
        // @fastify/multipart marks a part cut at fileSize instead of failing when so configured.
        if ((part.file as { truncated?: boolean }).truncated) {
          await discard([staged]);
          throw new ApiError(413, 'too_large', `"${part.filename}" is larger than MAX_UPLOAD_MB`);
        }
        const file = { field: part.fieldname, filename: part.filename ?? '', staged };
        files.push(file);
        onFile?.(file);
      } else if (typeof part.value === 'string') {
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    await discard(files.map((f) => f.staged));
    throw isMalformedBody(err) ? new ApiError(400, 'invalid_multipart', `The multipart body is malformed: ${(err as Error).message}`) : err;
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
