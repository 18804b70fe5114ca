// vitest globalSetup: starts installing Bluesky's reference PDS (test/support/blueskyPds.ts) when this machine has
// no install of it yet, without waiting, so the minute or so it takes overlaps the other test files; the Bluesky
// test files wait on the same lock when they start before it is done.
import { installPds } from './blueskyPds.ts';

export default function setup(): () => Promise<void> {
  const installing = installPds().catch((err: Error) => {
    // The test files then install it themselves, and fail with the reason if it fails again.
    process.stderr.write(`Installing the Bluesky PDS in the background failed: ${err.message}\n`);
  });
  return async () => {
    await installing;
  };
}
