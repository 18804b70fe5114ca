// Builds the dashboard to dashboard/dist, served by the Herald server at /app. The networks' text limits
// come from the server's own network modules at build time (virtual:network-text), so the live counters
// can never drift from the checks.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';
import { NETWORKS } from '../networks/index.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

function networkText(): Plugin {
  const id = 'virtual:network-text';
  return {
    name: 'herald-network-text',
    resolveId: (source) => (source === id ? '\0' + id : undefined),
    load(source) {
      if (source !== '\0' + id) return undefined;
      const networks = Object.values(NETWORKS).map(({ platform, label, available, textLimits }) => ({ platform, label, available, textLimits }));
      return `export default ${JSON.stringify(networks)};`;
    },
  };
}

export default defineConfig({
  root: here,
  base: '/app/',
  plugins: [react(), networkText()],
  build: {
    outDir: path.join(here, 'dist'),
    emptyOutDir: true,
    // The server sets a CSP without inline scripts; no module preload polyfill is needed by the browsers we support.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 500,
  },
});
