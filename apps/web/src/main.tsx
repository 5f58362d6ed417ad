// The page's strict Content-Security-Policy: the nonce for the styles the app creates (lib/csp.ts), before any render.
import './lib/csp';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import './lib/i18n';
import { App } from './app/app';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
