import { imageSchema, uploadResponseSchema } from '@cassavascope/contract';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context.js';
import { ApiError, badRequest } from '../http/errors.js';
import { named } from '../http/validation.js';
import { errorResponse, multipartBody } from '../openapi/route-doc.js';
import { baseName, UNNAMED } from '../names/file-names.js';
import { abortWhenIdle } from './idle-upload.js';
import { STORAGE_FULL_DETAIL } from '../storage/storage-full.js';
import { receiveMultipart, type ReceivedFile } from '../http/multipart-intake.js';
import { discard } from '../http/staged-file.js';
import { UploadBatch } from './upload-batch.js';
import { parseUploadFields, uploadFieldsSchema } from './upload-fields.js';
import { UPLOAD_LIMITS } from './upload-limits.js';
import { UploadService, type FileResult } from './upload.service.js';
import { ZipEarlyEntries } from './zip-early-entries.js';
import { PendingUploads } from './pending-uploads.js';
import { readZip } from './zip-intake.js';

const STATUS_OF_ERROR: Record<string, number> = { not_an_image: 415, too_large: 413 };

/** `resumable=1`: a 409 duplicate keeps the staged files under an `upload_token` (POST /images/upload-resume/). */
const resumableField = z.object({ resumable: z.enum(['1', 'true', '0', 'false']).optional() });
const manyFields = uploadFieldsSchema.omit({ name: true }).extend(resumableField.shape);

/** `POST /images/upload-resume/`: the token of a refused upload and the choice. */
const resumeBody = named(
  'upload resume',
  z.object({
    upload_token: z.string({ error: 'This field is required' }).min(1, 'This field is required'),
    duplicate_action: z.enum(['skip', 'overwrite', 'keep_both'], { message: 'must be skip, overwrite or keep_both' }),
  }),
);

const duplicate = errorResponse(
  '`duplicate` (with `duplicates`, `matches` and, with resumable=1, `upload_token`): nothing was stored; send again with duplicate_action',
);
const tooLarge = errorResponse('`too_large`: a file over MAX_UPLOAD_MB, or too many files or entries');
const notAnImage = errorResponse(
  '`not_an_image` (the only file is not a complete JPEG, PNG, WebP, TIFF or GIF), `invalid_zip` or `unsupported_media_type`',
);

/** A request whose only file failed answers with that file's error (415 not_an_image, 413 too_large). */
function onlyFileError(result: FileResult | undefined): ApiError | undefined {
  if (result?.kind !== 'error') return undefined;
  const { code, detail, name } = result.error;
  return new ApiError(STATUS_OF_ERROR[code] ?? 400, code, detail, { name });
}

/** Upload routes of the Images section: POST /images/, /images/upload-files/, /images/upload-batch/. */
export async function uploadsRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const service = new UploadService(ctx);
  const tempDir = ctx.storage.tempDir;
  const zipLimits = {
    maxEntryBytes: ctx.config.maxUploadBytes,
    maxEntries: UPLOAD_LIMITS.maxZipEntries,
    maxTotalBytes: UPLOAD_LIMITS.maxZipTotalBytes,
  };
  const pending = new PendingUploads({ db: ctx.db.kysely, storage: ctx.storage, log: ctx.log });
  app.addHook('onClose', () => pending.close());

  /**
   * Ingests a batch; with `resumable=1`, a 409 duplicate keeps the batch's files under a token (returned in the
   * 409 as `upload_token`) so the choice that follows does not send the bytes again.
   */
  async function ingestOrKeep(
    batch: UploadBatch,
    options: ReturnType<typeof parseUploadFields>,
    fields: Record<string, string>,
  ): Promise<FileResult[]> {
    try {
      return await service.ingest(batch, options);
    } catch (err) {
      // Opt-in (`resumable=1`): other clients keep the plain 409 that leaves nothing behind.
      const resumable = fields.resumable === '1' || fields.resumable === 'true';
      if (
        resumable &&
        err instanceof ApiError &&
        err.statusCode === 409 &&
        err.code === 'duplicate' &&
        options.action === undefined
      ) {
        const token = await pending.keep(batch, options.folderId);
        if (token !== undefined) throw new ApiError(409, err.code, err.detail, { ...err.extra, upload_token: token });
      }
      throw err;
    }
  }

  /**
   * Receives the files, decoding each as soon as it has arrived; cleans up whatever happens.
   * `zip`: the one file is a ZIP archive, neither hashed nor decoded itself; its entries are staged
   * (and decoded) while it arrives, for `work` to adopt through `early`.
   */
  async function withBatch<T>(
    req: FastifyRequest,
    maxFiles: number,
    work: (
      batch: UploadBatch,
      files: ReceivedFile[],
      fields: Record<string, string>,
      early?: ZipEarlyEntries,
    ) => Promise<T>,
    zip = false,
  ): Promise<T> {
    // Refused before a byte is read when the disk is already (nearly) full.
    if (await ctx.space.isNearlyFull()) throw new ApiError(507, 'storage_full', STORAGE_FULL_DETAIL);
    const batch = new UploadBatch();
    const stopIdleWatch = abortWhenIdle(req, ctx.config.uploadIdleMs);
    try {
      if (!zip) {
        const onFile = (file: ReceivedFile) => batch.addFile(baseName(file.filename) || UNNAMED, file.staged);
        const { files, fields } = await receiveMultipart(req, tempDir, maxFiles, onFile);
        return await work(batch, files, fields);
      }
      const early = new ZipEarlyEntries(tempDir, zipLimits, (staged) => batch.prefetch(staged));
      let files: ReceivedFile[] = [];
      try {
        const received = await receiveMultipart(req, tempDir, maxFiles, undefined, {
          hash: false,
          through: () => early.scanner(),
        });
        files = received.files;
        return await work(batch, files, received.fields, early);
      } finally {
        // The caller owns these temp files; make sure they go too.
        await discard(files.map((f) => f.staged));
        await early.discardUnused();
      }
    } finally {
      stopIdleWatch();
      // Files a 409 kept for the duplicate choice have moved to storage already (pending-uploads.ts).
      await batch.discardAll();
    }
  }

  // The multipart routes read their stream themselves (receiveMultipart) and check the text fields with the schema
  // they document (upload-fields.ts): `multipartBody` describes the form and is not applied before the handler.
  const filesSchema = {
    summary: 'Upload many image files',
    consumes: ['multipart/form-data'],
    body: multipartBody(manyFields, { files: { many: true, description: 'the images (repeat the field)' } }),
    response: { 201: uploadResponseSchema, 409: duplicate, 413: tooLarge, 415: notAnImage },
  };
  app.post('/images/upload-files/', { schema: filesSchema }, (req, reply) =>
    withBatch(req, UPLOAD_LIMITS.maxFilesPerRequest, async (batch, files, fields) => {
      const options = parseUploadFields(fields);
      if (files.length === 0)
        throw badRequest('No file was sent (multipart field "files")', { files: 'This field is required' });
      const results = await ingestOrKeep(batch, options, fields);
      const only = results.length === 1 ? onlyFileError(results[0]) : undefined;
      if (only) throw only;
      // Returned, not sent: Fastify answers after withBatch's cleanup, so no temp file outlives the response.
      reply.status(201);
      return UploadService.response(results);
    }),
  );

  const oneSchema = {
    summary: 'Upload one image file',
    consumes: ['multipart/form-data'],
    body: multipartBody(uploadFieldsSchema, { file: { many: false, description: 'the image' } }),
    response: {
      200: {
        description:
          'Skipped as a duplicate (duplicate_action=skip): the image that already holds this name or these bytes',
        content: { 'application/json': { schema: imageSchema } },
      },
      201: imageSchema,
      409: duplicate,
      413: tooLarge,
      415: notAnImage,
    },
  };
  app.post('/images/', { schema: oneSchema }, (req, reply) =>
    withBatch(req, 1, async (batch, files, fields) => {
      const options = parseUploadFields(fields);
      if (files.length === 0)
        throw badRequest('No file was sent (multipart field "file")', { file: 'This field is required' });
      const renamed = options.name === undefined ? undefined : baseName(options.name);
      if (renamed !== undefined) {
        if (!renamed) throw badRequest('name may not be blank', { name: 'This field may not be blank' });
        const candidate = batch.candidates[0];
        if (candidate) candidate.name = renamed;
      }
      const [result] = await service.ingest(batch, options);
      const failed = onlyFileError(result);
      if (failed) throw failed;
      if (result?.kind === 'stored') {
        // Stored or overwritten: 201 with the Image, as upload-files answers 201 for both.
        reply.status(201);
        return result.image;
      }
      // Skipped (duplicate_action=skip): the image that already holds this name or these bytes.
      const sha = batch.candidates[0]?.staged?.sha256;
      const existing =
        (result?.kind === 'skipped' && result.existing) || (sha ? await service.imageWithBytes(sha) : undefined);
      if (!existing)
        throw new ApiError(409, 'duplicate', 'The file is a duplicate', { duplicates: [result?.name ?? ''] });
      return service.imageView(existing);
    }),
  );

  const batchSchema = {
    summary: 'Upload a ZIP of images (folders inside it are flattened; other entries are listed in errors)',
    consumes: ['multipart/form-data'],
    body: multipartBody(manyFields, { file: { many: false, description: 'the ZIP archive' } }),
    response: {
      201: uploadResponseSchema,
      400: errorResponse('`invalid` (with `fields`) or `invalid_zip` (the archive breaks)'),
      409: duplicate,
      413: tooLarge,
      415: notAnImage,
    },
  };
  app.post('/images/upload-batch/', { schema: batchSchema }, (req, reply: FastifyReply) => {
    const requestStart = performance.now();
    return withBatch(
      req,
      1,
      async (batch, files, fields, early) => {
        const options = parseUploadFields(fields);
        const zip = files[0];
        if (!zip) throw badRequest('No ZIP file was sent (multipart field "file")', { file: 'This field is required' });
        const head = zip.staged.head;
        // Not a ZIP at all is a wrong file type (415); a ZIP that breaks half way is a 400 (readZip).
        if (!(head[0] === 0x50 && head[1] === 0x4b))
          throw new ApiError(415, 'invalid_zip', 'The file is not a ZIP archive');
        const extractStart = performance.now();
        await readZip(
          zip.staged.path,
          tempDir,
          zipLimits,
          (item) => {
            if ('staged' in item) batch.addFile(item.name, item.staged);
            else batch.addError(item.name, item.error.code, item.error.detail);
          },
          (entry) => early?.take(entry),
        );
        // The archive itself is no longer needed once its entries are staged.
        await discard([zip.staged]);
        const storeStart = performance.now();
        const results = await ingestOrKeep(batch, options, fields);
        req.log.info(
          {
            entries: batch.candidates.length,
            receivedMs: Math.round(extractStart - requestStart),
            extractedMs: Math.round(storeStart - extractStart),
            storedMs: Math.round(performance.now() - storeStart),
          },
          'ZIP ingested',
        );
        // Returned, not sent: Fastify answers after withBatch's cleanup, so no temp file outlives the response.
        reply.status(201);
        return UploadService.response(results);
      },
      true,
    );
  });

  /**
   * The choice after a 409 duplicate (an addition, docs/api.md): `{"upload_token", "duplicate_action"}` stores the
   * refused upload's files (kept by the server) under that choice, without sending them again. The answer is the
   * one the upload would have given with `duplicate_action` (201, count, uploaded, skipped, errors). An unknown or
   * expired token (10 minutes) is 410 `upload_expired`: send the files again.
   */
  const resumeSchema = {
    summary: 'Store a refused upload (409 with upload_token) with a duplicate_action, without sending the files again',
    body: resumeBody,
    response: {
      201: uploadResponseSchema,
      410: errorResponse('`upload_expired`: the upload is no longer kept; send the files again'),
    },
  };
  const typed = app.withTypeProvider<ZodTypeProvider>();
  typed.post('/images/upload-resume/', { schema: resumeSchema }, async (req, reply) => {
    const { upload_token: token, duplicate_action: action } = req.body;
    const found = await pending.take(token);
    if (!found) throw new ApiError(410, 'upload_expired', 'This upload is no longer kept: send the files again');
    try {
      const results = await service.ingest(found.batch, { folderId: found.folderId, checkDuplicate: true, action });
      reply.status(201);
      return UploadService.response(results);
    } finally {
      await pending.finish(found);
    }
  });
}
