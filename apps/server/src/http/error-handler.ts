import type { FastifyError, FastifyInstance } from 'fastify';
import { ApiError } from './errors.js';

/** Fastify's own error codes for bad client input, mapped to our `{code, detail}` bodies. */
const CLIENT_ERRORS: Record<string, { status: number; code: string; detail: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json', detail: 'The request body is not valid JSON' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'invalid_json', detail: 'The JSON request body is empty' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'too_large', detail: 'The request body is too large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type', detail: 'Unsupported Content-Type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid', detail: 'Invalid Content-Length' },
  FST_REQ_FILE_TOO_LARGE: { status: 413, code: 'too_large', detail: 'An uploaded file is larger than MAX_UPLOAD_MB' },
  FST_PARTS_LIMIT: { status: 413, code: 'too_large', detail: 'Too many parts in the multipart body' },
  FST_FILES_LIMIT: { status: 413, code: 'too_large', detail: 'Too many files in one request' },
  FST_FIELDS_LIMIT: { status: 413, code: 'too_large', detail: 'Too many fields in the multipart body' },
  FST_INVALID_MULTIPART_CONTENT_TYPE: { status: 415, code: 'unsupported_media_type', detail: 'Expected multipart/form-data' },
  FST_ERR_INVALID_URL: { status: 400, code: 'invalid', detail: 'Invalid URL' },
};

/**
 * The one error handler: known errors become `{code, detail}` with their status; anything else is
 * logged with the request context and answered as a bare 500 (never a stack trace in a body).
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | ApiError, request, reply) => {
    if (error instanceof ApiError) {
      return reply.status(error.statusCode).send({ code: error.code, detail: error.detail, ...error.extra });
    }
    const known = error.code ? CLIENT_ERRORS[error.code] : undefined;
    if (known) return reply.status(known.status).send({ code: known.code, detail: known.detail });
    if (error.validation) {
      return reply.status(400).send({ code: 'invalid', detail: error.message });
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return reply.status(status).send({ code: toSnake(error.code ?? 'bad_request'), detail: error.message });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ code: 'internal_error', detail: 'Internal server error' });
  });
}

function toSnake(code: string): string {
  return code.replace(/^FST_(ERR_)?/, '').toLowerCase();
}
