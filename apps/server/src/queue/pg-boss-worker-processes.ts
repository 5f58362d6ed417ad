import { spawn, type ChildProcess } from 'node:child_process';
import type { Logger } from 'pino';
import type { AppConfig } from '../config/config.js';
import { entryArgs, serverRoot } from '../util/entry-args.js';

/** The environment that gives a worker process the same configuration as this one. */
export function workerEnv(config: AppConfig): Record<string, string> {
  const env: Record<string, string | undefined> = {
    DATA_DIR: config.dataDir,
    DATABASE_URL: config.databaseUrl,
    S3_ENDPOINT: config.s3?.endpoint,
    S3_BUCKET: config.s3?.bucket,
    S3_ACCESS_KEY_ID: config.s3?.accessKeyId,
    S3_SECRET_ACCESS_KEY: config.s3?.secretAccessKey,
    S3_REGION: config.s3?.region,
    S3_FORCE_PATH_STYLE: config.s3 ? String(config.s3.forcePathStyle) : undefined,
    OSS_BASE_URL: config.ossBaseUrl,
    MODEL_PATH: config.modelPath,
    WORKERS: String(config.workers),
    LOG_LEVEL: config.logLevel,
    JOB_EXPIRE_SECONDS: String(config.scaleOut.jobExpireSeconds),
  };
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

/**
 * WORKER_PROCESSES=N: the API process runs N `worker-main` processes beside itself and stops them when
 * it stops (one machine, one command; also how the test suite's scale-out pass runs its jobs).
 * They start at the first enqueue, so a server that never runs a task never pays for them.
 */
export class LocalWorkerProcesses {
  private children: ChildProcess[] = [];

  constructor(
    private readonly config: AppConfig,
    private readonly count: number,
    private readonly log: Logger,
  ) {}

  async ensureStarted(): Promise<void> {
    if (this.children.length > 0) return;
    const args = entryArgs('src/worker-main.ts');
    for (let i = 0; i < this.count; i++) {
      const child = spawn(process.execPath, args, {
        cwd: serverRoot,
        env: { ...process.env, ...workerEnv(this.config), WORKER_EXIT_WITH_PARENT: '1' },
        stdio: ['ignore', 'inherit', 'inherit'],
      });
      child.once('exit', (code, signal) => {
        if (this.children.includes(child))
          this.log.warn({ pid: child.pid, code, signal }, 'a local worker process exited');
      });
      this.children.push(child);
    }
    this.log.info({ pids: this.children.map((c) => c.pid) }, 'local worker processes started');
  }

  /** SIGTERM (workers requeue their job and exit), SIGKILL after 15 s. */
  async stop(): Promise<void> {
    const children = this.children;
    this.children = [];
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
            child.once('exit', () => {
              clearTimeout(force);
              resolve();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  }
}
