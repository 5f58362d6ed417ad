/** Longest header block of one part we wait for (busboy's own limit is of the same order). */
const MAX_HEADER_BYTES = 16 * 1024;
const TOKEN_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+:/;
const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const EMPTY: Buffer = Buffer.alloc(0);

export interface MultipartProblem {
  /** the form field of the part (its `name`), or `files` when it cannot be read */
  field: string;
  detail: string;
}

/**
 * Reads the part headers of a multipart body as its bytes pass by, for what the parser (busboy) accepts in a
 * mangled form instead of refusing: a CR or LF inside a quoted file name ends the header line there, so busboy
 * silently stores `a` for `a\r\nb.jpg` and drops the rest as a header line without a colon. Such a body is
 * malformed and gets a 400 naming the field. Only delimiters and header blocks are looked at; part bodies
 * are skipped with Buffer.indexOf.
 */
export class MultipartHeaderCheck {
  problem: MultipartProblem | null = null;
  private readonly delimiter: Buffer;
  private state: 'body' | 'after-delimiter' | 'headers' | 'done' = 'body';
  private carry: Buffer;

  constructor(boundary: string) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`);
    // The first delimiter has no CRLF before it: pretend there was one.
    this.carry = Buffer.from(CRLF);
  }

  /** The boundary of a multipart Content-Type, or null. */
  static boundaryOf(contentType: string | undefined): string | null {
    const match = /;\s*boundary=(?:"([^"]{1,200})"|([^\s;]{1,200}))/i.exec(contentType ?? '');
    return match ? (match[1] ?? match[2] ?? null) : null;
  }

  push(chunk: Buffer): void {
    if (this.problem || this.state === 'done') return;
    let buf = chunk;
    // Bytes of the stream just before `buf` that `buf` does not hold (the carry, when not joined to it).
    let behind: Buffer = EMPTY;
    if (this.carry.length > 0) {
      // Inside a part body (gigabytes of a ZIP) the carry is only the last bytes of the previous chunk: the
      // chunk is copied only when a delimiter spans the seam, never on the way through.
      const seam =
        this.state === 'body' ? Buffer.concat([this.carry, chunk.subarray(0, this.delimiter.length - 1)]) : undefined;
      if (!seam || seam.indexOf(this.delimiter) !== -1) buf = Buffer.concat([this.carry, chunk]);
      else behind = this.carry;
    }
    for (;;) {
      if (this.state === 'body') {
        const at = buf.indexOf(this.delimiter);
        if (at === -1) {
          // Keep what could be the start of a delimiter that the next chunk completes.
          const keep = this.delimiter.length - 1;
          const tail =
            buf.length >= keep ? buf.subarray(buf.length - keep) : Buffer.concat([behind, buf]).subarray(-keep);
          this.carry = Buffer.from(tail);
          return;
        }
        behind = EMPTY;
        buf = buf.subarray(at + this.delimiter.length);
        this.state = 'after-delimiter';
      } else if (this.state === 'after-delimiter') {
        if (buf.length < 2) break;
        if (buf[0] === 0x2d && buf[1] === 0x2d) {
          this.state = 'done';
          return;
        }
        const eol = buf.indexOf(CRLF);
        if (eol === -1) {
          if (buf.length > 1024) return this.fail('files', 'A multipart boundary line is malformed');
          break;
        }
        // Only transport padding (spaces, tabs) may follow a delimiter.
        if (!/^[ \t]*$/.test(buf.subarray(0, eol).toString('latin1')))
          return this.fail('files', 'A multipart boundary line is malformed');
        buf = buf.subarray(eol + 2);
        this.state = 'headers';
      } else {
        if (buf.length >= 2 && buf[0] === 0x0d && buf[1] === 0x0a) {
          // No headers at all: the part is refused by the parser itself.
          buf = buf.subarray(2);
          this.state = 'body';
          continue;
        }
        const end = buf.indexOf(HEADER_END);
        if (end === -1) {
          if (buf.length > MAX_HEADER_BYTES) return this.fail('files', 'The headers of a multipart part are too long');
          break;
        }
        this.checkHeaders(buf.subarray(0, end).toString('latin1'));
        if (this.problem) return;
        // The part body starts right after the blank line (an empty part: the delimiter's CRLF is next).
        buf = buf.subarray(end + 4);
        this.state = 'body';
      }
    }
    this.carry = Buffer.from(buf);
  }

  private checkHeaders(block: string): void {
    const lines = block.split('\r\n');
    const disposition = lines.find((l) => /^content-disposition:/i.test(l));
    const field = (disposition && /[;\s]name="([^"\r\n]*)"/i.exec(disposition)?.[1]) || 'files';
    for (const line of lines) {
      if (/[\r\n]/.test(line))
        return this.fail(field, 'A part header holds a line break (a CR or LF inside a file name?)');
      if (!TOKEN_LINE.test(line))
        return this.fail(field, 'A part header line is malformed (a CR or LF inside a file name?)');
    }
    if (disposition && !quotesBalanced(disposition)) {
      return this.fail(field, 'A quoted value of Content-Disposition is not closed (a CR or LF inside a file name?)');
    }
    // RFC 5987 values (`filename*=UTF-8''a%0Ab.jpg`): the parser decodes them and, on a CR or LF, skips the part
    // without reading it, so a part over its buffers (~16 KB) stalled the whole request (issue 26, item 2).
    if (disposition && encodedLineBreak(disposition)) {
      return this.fail(field, 'An encoded file name holds a line break (%0D or %0A)');
    }
  }

  private fail(field: string, detail: string): void {
    this.problem = { field, detail };
    this.carry = Buffer.alloc(0);
  }
}

/** Whether an extended parameter (`name*=charset'lang'value`) percent-encodes a CR or LF. */
function encodedLineBreak(disposition: string): boolean {
  for (const [, value] of disposition.matchAll(/\*\s*=\s*([^;]*)/g)) {
    for (const [, hex] of (value ?? '').matchAll(/%([0-9a-fA-F]{2})/g)) {
      const code = parseInt(hex!, 16);
      if (code === 0x0d || code === 0x0a) return true;
    }
  }
  return false;
}

/** Quoted strings (with backslash escapes) all closed. */
function quotesBalanced(line: string): boolean {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted && c === '\\') i++;
    else if (c === '"') quoted = !quoted;
  }
  return !quoted;
}
