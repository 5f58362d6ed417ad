import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The server workspace (apps/server), from src/util or dist/util alike. */
export const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Running from TypeScript sources (tests), a process of this app starts from the build when the build is newer than
 * every source it is made from (the server's, the engine's and the contract's), and from its sources through tsx
 * otherwise (an edit not built yet). tsx compiles the sources at each start: about 2 s of CPU more per process, and
 * the test suite starts a few hundred (worker processes, the command-line tools).
 */
let fromBuild: boolean | undefined;
function buildIsCurrent(): boolean {
  if (!import.meta.url.endsWith('.ts')) return true;
  if (fromBuild !== undefined) return fromBuild;
  const workspaces = [
    serverRoot,
    path.resolve(serverRoot, '../../packages/ppd'),
    path.resolve(serverRoot, '../../packages/contract'),
  ];
  const newest = (dir: string): number => {
    let latest = 0;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      latest = Math.max(latest, entry.isDirectory() ? newest(full) : fs.statSync(full).mtimeMs);
    }
    return latest;
  };
  try {
    fromBuild = workspaces.every((ws) => newest(path.join(ws, 'src')) <= newest(path.join(ws, 'dist')));
  } catch {
    fromBuild = false; // no build
  }
  return fromBuild;
}

/**
 * The arguments for `node` that start `entry` (a path under src/ such as 'src/cli/users-command.ts', relative to
 * apps/server): its built file when the build is current and has it, its source through tsx otherwise.
 */
export function entryArgs(entry: string): string[] {
  const built = entry.replace(/^src\//, 'dist/').replace(/\.ts$/, '.js');
  if (buildIsCurrent() && fs.existsSync(path.join(serverRoot, built))) return [path.join(serverRoot, built)];
  return ['--conditions=source', '--import', 'tsx', path.join(serverRoot, entry)];
}
