// Builds the dashboard to dashboard/dist, served by the Herald server at /app.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { networkText } from './networkText.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: '/app/',
  plugins: [react(), networkText()],
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    // The server's CSP allows no inline script; the browsers we support need no preload polyfill.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 500,
  },
});
