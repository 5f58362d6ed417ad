import net from 'node:net';

/** One HTTP/1.1 response read off a raw socket: status line, headers and the body (by Content-Length). */
export interface SocketResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/**
 * A keep-alive connection driven by hand, so a test can send malformed bytes and then check that the
 * next request on the same connection is still served. Every wait is bounded: a request that is never
 * answered fails the test with `no answer` instead of hanging it.
 */
export class RawConnection {
  private buffer = Buffer.alloc(0);
  private closed = false;
  private waiters: (() => void)[] = [];
  readonly socket: net.Socket;

  private constructor(socket: net.Socket) {
    this.socket = socket;
    socket.on('data', (d: Buffer) => {
      this.buffer = Buffer.concat([this.buffer, d]);
      this.wake();
    });
    socket.on('close', () => {
      this.closed = true;
      this.wake();
    });
    socket.on('error', () => undefined);
  }

  static open(baseUrl: string): Promise<RawConnection> {
    const url = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  get isClosed(): boolean {
    return this.closed;
  }

  private wake() {
    for (const w of this.waiters.splice(0)) w();
  }

  private async until<T>(take: () => T | undefined, timeoutMs: number): Promise<T | undefined> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = take();
      if (value !== undefined || this.closed) return value ?? take();
      const left = deadline - Date.now();
      if (left <= 0) return undefined;
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  write(bytes: Buffer | string): void {
    this.socket.write(bytes);
  }

  /** Sends one request (headers + body) and reads its response; undefined when none came in time. */
  async request(
    method: string,
    pathname: string,
    headers: Record<string, string>,
    body: Buffer = Buffer.alloc(0),
    timeoutMs = 10_000,
  ) {
    const lines = [
      `${method} ${pathname} HTTP/1.1`,
      'Host: 127.0.0.1',
      ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    ];
    if (body.length > 0 || method !== 'GET') lines.push(`Content-Length: ${body.length}`);
    this.write(Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`), body]));
    return this.response(timeoutMs);
  }

  /** The next response on the connection, or undefined when none arrives within `timeoutMs`. */
  response(timeoutMs = 10_000): Promise<SocketResponse | undefined> {
    return this.until(() => {
      const end = this.buffer.indexOf('\r\n\r\n');
      if (end === -1) return undefined;
      const head = this.buffer.subarray(0, end).toString('latin1').split('\r\n');
      const status = Number(head[0]?.split(' ')[1]);
      const headers: Record<string, string> = {};
      for (const line of head.slice(1)) {
        const i = line.indexOf(':');
        headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
      }
      const length = Number(headers['content-length'] ?? 0);
      if (this.buffer.length < end + 4 + length) return undefined;
      const body = this.buffer.subarray(end + 4, end + 4 + length).toString('utf8');
      this.buffer = this.buffer.subarray(end + 4 + length);
      return { status, headers, body };
    }, timeoutMs);
  }

  close(): void {
    this.socket.destroy();
  }
}

/** A multipart body from raw part descriptions, byte for byte as given (malformations included). */
export function multipartBody(boundary: string, parts: { headers: string; body: Buffer | string }[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    chunks.push(Buffer.from(`--${boundary}\r\n${p.headers}\r\n\r\n`, 'utf8'), Buffer.from(p.body), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(chunks);
}
