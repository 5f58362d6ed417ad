import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config/config.js';
import { closeContext, createContext, type AppContext } from '../../src/context.js';
import { createLogger } from '../../src/logger.js';
import { scaleOutEnvForTest } from './scale-out-env.js';

export interface TestServer {
  url: string;
  dataDir: string;
  ctx: AppContext;
  app: FastifyInstance;
  /** fetch against the server; `path` starts with /api/... */
  request(pathname: string, init?: RequestInit): Promise<Response>;
  /** JSON helper: returns status and parsed body (null for an empty body). */
  json<T = any>(
    pathname: string,
    init?: RequestInit & { body?: any },
  ): Promise<{ status: number; body: T; headers: Headers }>;
  close(): Promise<void>;
}

/**
 * A real server on a random loopback port with a fresh temp DATA_DIR and database:
 * no mocks of the database, files or engine.
 */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  // A test may bring its own DATA_DIR (a small tmpfs for the full-disk tests).
  const dataDir = env.DATA_DIR ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'cassava-test-')));
  const config = loadConfig({
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'silent',
    WORKERS: '1',
    ...(await scaleOutEnvForTest()),
    ...env,
  });
  const ctx = await createContext(config, createLogger(config.logLevel));
  const app = await buildApp(ctx);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no address');
  const url = `http://127.0.0.1:${address.port}`;

  const request = (pathname: string, init?: RequestInit) => fetch(url + pathname, init);
  const json = async (pathname: string, init: RequestInit & { body?: any } = {}) => {
    const headers = new Headers(init.headers);
    let body = init.body;
    if (body !== undefined && typeof body !== 'string' && !(body instanceof FormData)) {
      body = JSON.stringify(body);
      headers.set('content-type', 'application/json');
    }
    const res = await fetch(url + pathname, { ...init, headers, body });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null, headers: res.headers };
  };
  return {
    url,
    dataDir,
    ctx,
    app,
    request,
    json,
    async close() {
      await app.close();
      await closeContext(ctx);
      await fs.rm(dataDir, { recursive: true, force: true });
    },
  };
}
