// vitest globalSetup: starts installing Bluesky's reference PDS (test/support/blueskyPds.ts) without waiting, so on a
// machine that has no install of it yet the minute or so it takes overlaps the other test files; the Bluesky test
// files wait on the same lock when they start before it is done. Only for a run that includes those files: a run
// of other files would otherwise wait for the install at its end.
import { installPds } from './blueskyPds.ts';

const BLUESKY_FILES = ['test/connectors/bluesky.test.ts', 'test/bluesky.browser.test.ts'];

/** Whether the command line's file filters (vitest matches them as parts of a path), if any, take a Bluesky file. */
function runIncludesBluesky(): boolean {
  const filters = process.argv.slice(2).filter((a) => !a.startsWith('-') && a !== 'run' && !a.includes('='));
  return filters.length === 0 || filters.some((f) => BLUESKY_FILES.some((file) => file.includes(f)));
}

export default function setup(): (() => Promise<void>) | undefined {
  if (!runIncludesBluesky()) return undefined;
  const installing = installPds().catch((err: Error) => {
    // The test files then install it themselves, and fail with the reason if it fails again.
    process.stderr.write(`Installing the Bluesky PDS in the background failed: ${err.message}\n`);
  });
  return async () => {
    await installing;
  };
}
