import { createUserBodySchema, ROLES, type Role } from '@cassavascope/contract';
import { ConfigError, loadConfig } from '../config/config.js';
import { openDatabase } from '../db/database.js';
import { ApiError } from '../http/errors.js';
import { UsersService } from '../users/users.service.js';

const USAGE = `Manages the users who can sign in (the same database the server uses: DATA_DIR or DATABASE_URL).

  npm run users -- add NAME --role viewer|researcher|admin   asks for the password
  npm run users -- password NAME                              asks for a new password
  npm run users -- list

The password is never taken on the command line: it is asked for (hidden) on a terminal, or read from the
first line of standard input otherwise (e.g. from a secrets file).`;

/** The first line of standard input when it is not a terminal; else a hidden prompt, asked twice. */
async function readPassword(): Promise<string> {
  if (!process.stdin.isTTY) {
    let text = '';
    for await (const chunk of process.stdin) text += String(chunk);
    return text.split(/\r?\n/)[0] ?? '';
  }
  const first = await promptHidden('Password: ');
  const again = await promptHidden('Password again: ');
  if (first !== again) throw new CliError('the two passwords differ');
  return first;
}

/** Reads one line from the terminal without echoing it. */
function promptHidden(prompt: string): Promise<string> {
  const stdin = process.stdin;
  process.stderr.write(prompt);
  stdin.setRawMode(true);
  stdin.setEncoding('utf8');
  stdin.resume();
  let value = '';
  return new Promise((resolve, reject) => {
    const finish = () => {
      stdin.setRawMode(false);
      stdin.pause();
      stdin.off('data', onData);
      process.stderr.write('\n');
    };
    const onData = (chunk: string) => {
      for (const c of chunk) {
        if (c === '\r' || c === '\n') return (finish(), resolve(value));
        if (c === '\u0003') return (finish(), reject(new CliError('cancelled')));
        value = c === '\u007f' || c === '\b' ? value.slice(0, -1) : value + c;
      }
    };
    stdin.on('data', onData);
  });
}

class CliError extends Error {}

async function main(argv: string[]): Promise<number> {
  const [command, name] = argv;
  const roleIndex = argv.indexOf('--role');
  const role = roleIndex >= 0 ? argv[roleIndex + 1] : undefined;
  if (
    !command ||
    argv.includes('--help') ||
    !['add', 'password', 'list'].includes(command) ||
    (command !== 'list' && !name)
  ) {
    process.stderr.write(`${USAGE}\n`);
    return argv.includes('--help') ? 0 : 2;
  }
  if (argv.some((a) => a === '--password' || a.startsWith('--password='))) {
    throw new CliError(
      'the password is never taken on the command line (it would stay in the shell history): it is asked for, or read from standard input',
    );
  }
  if (command === 'add' && !ROLES.includes(role as Role))
    throw new CliError(`--role must be one of ${ROLES.join(', ')}`);
  const db = await openDatabase(loadConfig());
  try {
    const users = new UsersService(db);
    if (command === 'list') {
      const { results } = await users.list({ page: 1, pageSize: 1000, offset: 0 });
      for (const u of results) process.stdout.write(`${u.id}\t${u.username}\t${u.role}\n`);
      return 0;
    }
    const existing = await users.byName(name!);
    if (command === 'add' && existing) throw new CliError(`a user named "${existing.username}" already exists`);
    if (command === 'password' && !existing) throw new CliError(`no user named "${name}"`);
    const password = await readPassword();
    const checked = createUserBodySchema.safeParse({ username: name, password, role: role ?? 'viewer' });
    if (!checked.success)
      throw new CliError(checked.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
    if (command === 'add') {
      const user = await users.create({ username: checked.data.username, password, role: role as Role });
      process.stdout.write(`added ${user.username} (${user.role})\n`);
    } else {
      await users.update(existing!.id, { password }, null);
      process.stdout.write(`new password set for ${existing!.username}; their sessions have ended\n`);
    }
    return 0;
  } finally {
    await db.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    const known = err instanceof CliError || err instanceof ConfigError || err instanceof ApiError;
    process.stderr.write(`users: ${known ? err.message : String(err instanceof Error ? err.stack : err)}\n`);
    process.exit(known ? 2 : 1);
  },
);
