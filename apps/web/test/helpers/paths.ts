import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute paths the e2e helpers need, from this file's location. */
export const WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const REPO_DIR = path.resolve(WEB_DIR, '../..');
export const SERVER_MAIN = path.join(REPO_DIR, 'apps/server/dist/main.js');
export const WEB_INDEX = path.join(WEB_DIR, 'dist/index.html');
export const SCREENSHOT_DIR = path.join(WEB_DIR, 'test/screenshots');
