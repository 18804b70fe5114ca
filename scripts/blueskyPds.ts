// `npx tsx scripts/blueskyPds.ts`: Bluesky's reference PDS for the sandbox (SANDBOX_PDS), the same one the tests
// start (test/support/blueskyPds.ts; installed under Node 22 on first use). It makes one account with an app
// password, prints what to connect it with, and runs until Ctrl-C.
import { AtpAgent } from '@atproto/api';
import { installPds, startPds } from '../test/support/blueskyPds.ts';

async function main() {
  const pds = await startPds(await installPds());
  const handle = `demo${Date.now().toString(36)}.test`;
  const agent = new AtpAgent({ service: pds.url });
  await agent.createAccount({ handle, email: `${handle}@example.com`, password: `main-${Date.now()}` });
  const { data } = await agent.com.atproto.server.createAppPassword({ name: 'herald' });
  console.log(`SANDBOX_PDS=${pds.url}`);
  console.log(`Set it for herald serve (and herald worker), then connect Bluesky in the dashboard with:`);
  console.log(`  handle ${handle}, app password ${data.password}`);
  console.log('More accounts: POST /xrpc/com.atproto.server.createAccount on the PDS. Ctrl-C stops it.');
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await pds.close();
}

await main();
