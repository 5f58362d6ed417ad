import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { signIn } from './helpers/sign-in.js';
import { scaleOutEnvForTest } from './helpers/scale-out-env.js';
import { startTestServer } from './helpers/test-server.js';
import { entryArgs } from '../src/util/entry-args.js';

/**
 * `npm run users -- add NAME --role admin` (issue 14): the password comes from standard input (a prompt on a
 * terminal), never from the command line; the user it makes can sign in to a server on the same database.
 */
const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => fs.rm(d, { recursive: true, force: true }))));

function users(env: Record<string, string>, args: string[], stdin: string) {
  return spawnSync(process.execPath, [...entryArgs('src/cli/users-command.ts'), ...args], {
    cwd: SERVER,
    env: { ...process.env, ...env, LOG_LEVEL: 'silent' },
    input: stdin,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

// Eight runs of the command, each starting Node (and compiling the CLI when the build is not current): the default
// 60 s is too short on a busy machine.
it(
  'adds an admin with a password read from stdin, who can then sign in; refuses what is wrong',
  { timeout: 300_000 },
  async () => {
    const dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'cassava-users-'));
    dirs.push(dataDir);
    // One database for the command and the server (PostgreSQL in the scale-out run).
    const env = { DATA_DIR: dataDir, ...(await scaleOutEnvForTest()) };
    delete env.WORKER_PROCESSES;
    delete env.API_WORKS_JOBS;

    const added = users(env, ['add', 'Lab.Admin', '--role', 'admin'], 'a-secret-from-stdin\n');
    expect(added.stderr).toBe('');
    expect(added.status).toBe(0);
    expect(added.stdout).toContain('added Lab.Admin (admin)');
    expect(added.stdout + added.stderr).not.toContain('a-secret-from-stdin');

    expect(users(env, ['add', 'lab.admin', '--role', 'viewer'], 'another-password\n').status).toBe(2);
    const short = users(env, ['add', 'x', '--role', 'viewer'], 'short\n');
    expect(short.status).toBe(2);
    expect(short.stderr).toContain('password');
    expect(users(env, ['add', 'y', '--role', 'owner'], 'long-enough-password\n').status).toBe(2);
    const onCommandLine = users(env, ['add', 'z', '--role', 'viewer', '--password', 'long-enough-password'], '');
    expect(onCommandLine.status).toBe(2);
    expect(onCommandLine.stderr).toContain('never taken on the command line');

    const listed = users(env, ['list'], '');
    expect(
      listed.stdout
        .trim()
        .split('\n')
        .map((l) => l.split('\t').slice(1)),
    ).toEqual([['Lab.Admin', 'admin']]);

    const server = await startTestServer({ ...env, AUTH: 'on' });
    try {
      const cookie = await signIn(server, 'lab.admin', 'a-secret-from-stdin');
      expect((await server.json('/api/users/', { headers: { cookie } })).status).toBe(200);
      // A new password set from the command line works at once and ends the old session.
      const reset = users(env, ['password', 'Lab.Admin'], 'a-newer-secret-123\n');
      expect(reset.status).toBe(0);
      expect((await server.json('/api/auth/me/', { headers: { cookie } })).status).toBe(401);
      await signIn(server, 'lab.admin', 'a-newer-secret-123');
    } finally {
      await server.close();
    }
  },
);
