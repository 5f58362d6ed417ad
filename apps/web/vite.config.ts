import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  // Workspace packages (the contract) are bundled from their TypeScript sources.
  resolve: { conditions: ['source', 'module', 'browser', 'development|production'] },
  server: { port: 5173, proxy: { '/api': 'http://127.0.0.1:8080', '/media': 'http://127.0.0.1:8080' } },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1500 },
  // The page's nonce: the built index.html gets <meta property="csp-nonce" nonce="..."> and nonce attributes on its
  // tags with this placeholder, which the server replaces in every response (its Content-Security-Policy allows
  // no inline style or script without it). Must equal CSP_NONCE_PLACEHOLDER in apps/server/src/security/.
  html: { cspNonce: '__CSP_NONCE__' },
});
