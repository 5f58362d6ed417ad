import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isStorageFull, STORAGE_FULL_DETAIL } from '../storage/storage-full.js';
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
  FST_INVALID_MULTIPART_CONTENT_TYPE: {
    status: 415,
    code: 'unsupported_media_type',
    detail: 'Expected multipart/form-data',
  },
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
    if (isStorageFull(error)) {
      request.log.warn({ err: error }, 'a write found the storage full');
      return reply.status(507).send({ code: 'storage_full', detail: STORAGE_FULL_DETAIL });
    }
    const known = error.code ? CLIENT_ERRORS[error.code] : undefined;
    if (known) return reply.status(known.status).send({ code: known.code, detail: known.detail });
    if (clientWentAway(error, request.raw.destroyed || request.raw.socket?.destroyed === true)) {
      // Not a server fault: the client hung up mid-request (nobody reads this answer).
      request.log.info({ err: error }, 'the client went away during the request');
      return reply.status(400).send({ code: 'aborted', detail: 'The request was cut off by the client' });
    }
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

/** An upload stream broken by the client (connection reset, body cut off), as opposed to a fault of ours. */
function clientWentAway(error: { code?: string; message?: string }, socketGone: boolean): boolean {
  if (error.code === 'ECONNRESET' || error.code === 'ERR_STREAM_PREMATURE_CLOSE' || error.message === 'aborted')
    return true;
  return socketGone && (error.code === 'ECONNABORTED' || error.code === 'EPIPE');
}

/**
 * Errors Fastify meets before routing (a malformed percent-encoding, an over-long path parameter), in our
 * `{code, detail}` shape rather than Fastify's own.
 */
export function frameworkError(error: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  // Sent before routing: the app's onSend hook does not run for these.
  void reply.header('X-Content-Type-Options', 'nosniff');
  void reply.header('Referrer-Policy', 'same-origin');
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.status(414).send({ code: 'too_large', detail: 'A part of the URL is too long' });
    return;
  }
  void reply.status(400).send({ code: 'invalid', detail: 'The URL is malformed' });
}

/**
 * Requests that break the HTTP protocol itself (a bad header byte, headers over the size limit, a request
 * timeout) are answered by Node before Fastify sees them: this writes the same `{code, detail}` shape.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, reason, code, detail] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout', 'timeout', 'The request took too long to arrive']
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large', 'too_large', 'The request headers are too large']
        : [400, 'Bad Request', 'invalid', 'The request is not valid HTTP'];
  const body = JSON.stringify({ code, detail });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nReferrer-Policy: same-origin\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}

function toSnake(code: string): string {
  return code.replace(/^FST_(ERR_)?/, '').toLowerCase();
}
