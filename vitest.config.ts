import react from '@vitejs/plugin-react';
import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { networkText } from './dashboard/networkText.ts';
import LongFilesFirst from './test/support/longFilesFirst.ts';

export default defineConfig({
  // The dashboard's component tests (dashboard/src/**/*.test.tsx) need JSX and the networks' text limits.
  plugins: [react(), networkText()],
  test: {
    include: ['test/**/*.test.ts', 'dashboard/src/**/*.test.{ts,tsx}'],
    pool: 'forks',
    // A worker process keeps the modules it imported from one file to the next: importing the server's modules
    // afresh for each of ~125 files cost over three minutes of CPU. Every file builds its own instances (app,
    // database, clock) through test/support, so nothing a test changes is held in a module between files.
    isolate: false,
    sequence: { sequencer: LongFilesFirst },
    // Two files at once even on 2 cores (vitest's default there is one): most files wait on PostgreSQL, child
    // processes or Chromium rather than on the CPU. Three were measured too: 15% less time, but the browser walks,
    // the chaos run's requests and a restart's deadline then missed their bounds.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/summaryReporter.ts'],
    // Starts `prism proxy` only when TEST_PRISM is set (the Prism pass of `make test`); migrates the
    // databases every test instance starts from a copy of; installs Bluesky's PDS in the background.
    globalSetup: [
      './test/support/prismProxy.ts',
      './test/support/templateDatabases.ts',
      './test/support/blueskyInstall.ts',
    ],
  },
});
