// Builds the dashboard to dashboard/dist, served by the Herald server at /app.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { networkText } from './networkText.ts';
import { precompress } from './precompress.ts';

const here = path.dirname(fileURLToPath(import.meta.url));
// `npx vite dashboard` (hot reload) sends everything but the app to a running Herald server.
const herald = process.env.HERALD_URL ?? 'http://localhost:8080';

export default defineConfig({
  root: here,
  base: '/app/',
  plugins: [react(), networkText(), precompress()],
  server: {
    proxy: Object.fromEntries(['/v1', '/auth', '/uploads', '/media-files', '/sandbox'].map((p) => [p, herald])),
  },
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    // The server's CSP allows no inline script; the browsers we support need no preload polyfill.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 500,
  },
});
