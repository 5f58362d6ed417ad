import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The server's floors (docs/architecture.md, "Floors") are kept by `npm run lint` (eslint.config.js): these plant
 * the imports a change could add and check the linter refuses them, and lets through what the floors allow.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const src = 'apps/server/src';

/** The problems `npx eslint` reports for `code` as the file `file`, in a new process (it reads the folders again). */
function cliProblems(file: string, code: string): string[] {
  const bin = path.join(path.dirname(createRequire(import.meta.url).resolve('eslint/package.json')), 'bin/eslint.js');
  const run = spawnSync(
    process.execPath,
    [bin, '--format', 'json', '--stdin', '--stdin-filename', path.join(root, src, file)],
    { cwd: root, input: code, encoding: 'utf8' },
  );
  const [result] = JSON.parse(run.stdout) as { messages: { ruleId: string; message: string }[] }[];
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

async function problems(eslint: ESLint, file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, src, file) });
  return result!.messages.map((m) => `${m.ruleId}: ${m.message}`);
}

describe('the server floors in the linter', () => {
  const eslint = new ESLint({ cwd: root });
  const planted: string[] = [];
  afterAll(() => {
    for (const dir of planted) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('refuses an import from infrastructure up into a feature', async () => {
    const found = await problems(
      eslint,
      'storage/planted.ts',
      "import { ImagesRepository } from '../images/images.repository.js';\nexport const repo = ImagesRepository;\n",
    );
    expect(found).toEqual([expect.stringMatching(/^import-x\/no-restricted-paths: .*Infrastructure imports only/)]);
  });

  it("refuses a feature importing another feature's private module or routes, and lets a flow read an owner", async () => {
    const privateModule = await problems(
      eslint,
      'tasks/planted.ts',
      "import { cropBox } from '../predictions/box-scoring.js';\nexport const crop = cropBox;\n",
    );
    expect(privateModule).toEqual([expect.stringMatching(/A feature imports another feature only through/)]);
    const routes = await problems(
      eslint,
      'images/planted.ts',
      "import { uploadsRoutes } from '../uploads/uploads.routes.js';\nexport const routes = uploadsRoutes;\n",
    );
    expect(routes).toEqual([expect.stringMatching(/A feature imports another feature only through/)]);
    const ownerRead = await problems(
      eslint,
      'tasks/planted.service.ts',
      "import { ImagesRepository } from '../images/images.repository.js';\nexport const repo = ImagesRepository;\n",
    );
    expect(ownerRead).toEqual([]);
  });

  it('refuses a repository calling another repository or opening a transaction, and a value import of context.ts below the app', async () => {
    const owner = await problems(
      eslint,
      'folders/planted.repository.ts',
      "import { ImagesRepository } from '../images/images.repository.js';\nexport const repo = ImagesRepository;\n",
    );
    expect(owner).toEqual([expect.stringMatching(/An owner is a leaf/)]);
    const transaction = await problems(
      eslint,
      'folders/planted.repository.ts',
      "import type { Kysely } from 'kysely';\nexport const write = (db: Kysely<object>) => db.transaction().execute(async () => 1);\n",
    );
    expect(transaction).toEqual([expect.stringMatching(/^no-restricted-syntax: An owner opens no transaction/)]);
    const context = await problems(
      eslint,
      'tasks/planted.ts',
      "import { createContext } from '../context.js';\nexport const create = createContext;\n",
    );
    expect(context).toEqual([expect.stringMatching(/^no-restricted-syntax: .*AppContext type only/)]);
  });

  it('fences a new folder in as a feature at once', async () => {
    const dir = path.join(root, src, `planted-${process.pid}`);
    planted.push(dir);
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, 'thing.ts'), 'export const thing = 1;\n');
    const into = cliProblems(
      'labels/planted.ts',
      `import { thing } from '../planted-${process.pid}/thing.js';\nexport const x = thing;\n`,
    );
    expect(into).toEqual([expect.stringMatching(/A feature imports another feature only through/)]);
    const outOf = cliProblems(
      `planted-${process.pid}/other.ts`,
      "import { toTask } from '../tasks/task.mapper.js';\nexport const x = toTask;\n",
    );
    expect(outOf).toEqual([expect.stringMatching(/A feature imports another feature only through/)]);
  });
});
