import { useMutation } from '@tanstack/react-query';
import { serverStatusSchema, type ServerStatus } from '@cassavascope/contract';
import { api } from '../../../lib/api-client';
import { asRecord, pickNumber, pickString } from '../../../lib/normalize-fields';

/** The connection test's view of `/api/status/` (spec section 3: status, counts, version, uptime, server time). */
export interface ConnectionStatus {
  status: string;
  imageCount: number | null;
  taskCount: number | null;
  version: string | null;
  uptimeSeconds: number | null;
  serverTime: string | null;
  engineLabel: string | null;
  database: string | null;
  storage: string | null;
  queue: string | null;
  endpoints: { path: string; ok: boolean }[];
  /** free space on the server's data disk; null from a server that does not report it */
  disk: { freeBytes: number; totalBytes: number; low: boolean } | null;
  /** the last check of the stored files (issue 26); null from a server that does not report it */
  storageCheck: StorageCheckState | null;
  /** round trip of the test request, in milliseconds */
  latencyMs: number;
  testedAt: string;
}

export function normalizeStatus(input: unknown, latencyMs: number, testedAt: Date): ConnectionStatus {
  const raw = asRecord(input);
  const engine = asRecord(raw.engine);
  const endpoints = Array.isArray(raw.endpoints)
    ? raw.endpoints.map((e) => {
        const r = asRecord(e);
        return { path: pickString(r, 'path') ?? '', ok: r.ok === true };
      })
    : [];
  return {
    status: pickString(raw, 'status') ?? 'unknown',
    imageCount: pickNumber(raw, 'image_count', 'imageCount'),
    taskCount: pickNumber(raw, 'task_count', 'taskCount'),
    version: pickString(raw, 'version'),
    uptimeSeconds: pickNumber(raw, 'uptime_seconds', 'uptimeSeconds'),
    serverTime: pickString(raw, 'server_time', 'serverTime'),
    engineLabel: pickString(engine, 'label'),
    database: pickString(raw, 'database'),
    storage: pickString(raw, 'storage'),
    queue: pickString(raw, 'queue'),
    endpoints,
    disk: diskOf(raw.disk),
    storageCheck: storageCheckOf(raw.storage_check),
    latencyMs,
    testedAt: testedAt.toISOString(),
  };
}

function diskOf(input: unknown): ConnectionStatus['disk'] {
  const d = asRecord(input);
  const free = pickNumber(d, 'free_bytes', 'freeBytes');
  const total = pickNumber(d, 'total_bytes', 'totalBytes');
  return free === null || total === null ? null : { freeBytes: free, totalBytes: total, low: d.low === true };
}

/** The storage check's summary: `checkedAt` null before the first check. */
export interface StorageCheckState {
  checkedAt: string | null;
  missing: number;
  corrupt: number;
  untracked: number;
  files: number;
  running: boolean;
  error: string | null;
}

export function storageCheckOf(input: unknown): StorageCheckState | null {
  if (!input || typeof input !== 'object') return null;
  const c = asRecord(input);
  return {
    checkedAt: pickString(c, 'checked_at'),
    missing: pickNumber(c, 'missing') ?? 0,
    corrupt: pickNumber(c, 'corrupt') ?? 0,
    untracked: pickNumber(c, 'untracked') ?? 0,
    files: pickNumber(c, 'files') ?? 0,
    running: c.running === true,
    error: pickString(c, 'error'),
  };
}

/** A real call to the server (the seed's simulated test made true). */
export async function testConnection(): Promise<ConnectionStatus> {
  const started = performance.now();
  const data = await api.get<Partial<ServerStatus>>('/status/', undefined, undefined, serverStatusSchema);
  return normalizeStatus(data, Math.round(performance.now() - started), new Date());
}

/** The test is started by the user: idle -> testing (pending) -> success | error. */
export function useConnectionTest() {
  return useMutation({ mutationFn: testConnection });
}
