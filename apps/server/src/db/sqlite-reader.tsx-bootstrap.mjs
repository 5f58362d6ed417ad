// Used only when the server runs from its TypeScript sources (Vitest, tsx): registers tsx in the reader thread,
// then hands Piscina the TypeScript worker's task function.
import { register } from 'tsx/esm/api';

register();
const worker = await import(new URL('./sqlite-reader.worker.ts', import.meta.url).href);
export default worker.default;
