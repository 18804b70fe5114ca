// `make image-test` only (test/image/quickStart.image.ts): the main suite's include never matches *.image.ts.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: { include: ['test/image/*.image.ts'], testTimeout: 60_000, hookTimeout: 120_000 },
});
