// vitest sequencer: on a run without vitest's timing cache (a fresh clone, as on CI) vitest starts the largest files
// first, and a short file that runs long because it waits on the processes it starts (chaos, crash) would start
// last and end the run alone. Such files, named here from measured runs, start first; once the cache knows each
// file's duration, vitest's own order (longest first) holds.
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The longest-running files, longest first (a run of `npx vitest run` on a 2-core machine). */
const LONG_FILES = [
  'test/dashboard.browser.test.ts',
  'test/settings.browser.test.ts',
  'test/chaos.test.ts',
  'test/fuzz.test.ts',
  'test/crash.test.ts',
  'test/upgrades.test.ts',
  'test/publishing.test.ts',
  'test/liveUpdates.browser.test.ts',
  'test/cli.test.ts',
  'test/mcpStdio.test.ts',
  'test/isolation.test.ts',
  'test/integratorKills.test.ts',
  'test/stuckJob.test.ts',
];

export default class LongFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const relative = (file: TestSpecification) => path.relative(this.ctx.config.root, file.moduleId);
    const timed = files.some((file) => this.ctx.cache.getFileTestResults(`${file.project.name}:${relative(file)}`));
    if (timed) return sorted;
    const rank = (file: TestSpecification) => {
      const at = LONG_FILES.indexOf(relative(file));
      return at === -1 ? LONG_FILES.length : at;
    };
    // Array.prototype.sort is stable: the other files keep vitest's order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
