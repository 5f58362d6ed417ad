/**
 * Fault injection for the crash tests (issue 13): with `CASSAVA_CRASH_POINT=<name>` in the environment the
 * process kills itself with SIGKILL when it reaches that point, exactly as a power cut there would. Points:
 * `upload-staged` (a file of an upload is in the temp folder), `upload-before-rows` (blobs moved into storage,
 * rows not yet written), `delete-before-files` (rows deleted and committed, files not yet removed).
 * Unset in production: a comparison of one string.
 */
export function crashPoint(name: string): void {
  if (process.env.CASSAVA_CRASH_POINT === name) process.kill(process.pid, 'SIGKILL');
}
