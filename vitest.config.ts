import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    reporters: ['default', './test/support/summaryReporter.ts'],
    // Starts `prism proxy` only when TEST_PRISM is set (the Prism pass of `make test`).
    globalSetup: ['./test/support/prismProxy.ts'],
  },
});
