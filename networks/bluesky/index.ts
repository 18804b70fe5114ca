// Bluesky (the AT Protocol's app.bsky records, on bsky.social or any PDS): one network module, listed in
// networks/index.ts. No simulator: the tests and the sandbox use the reference PDS itself (SANDBOX_PDS).
import type { NetworkModule } from '../network.ts';
import { blueskySignIn } from './connect.ts';
import { blueskyConnectorModule } from './connector.ts';
import { blueskyRules } from './rules.ts';

export const bluesky: NetworkModule = {
  rules: blueskyRules,
  connector: blueskyConnectorModule,
  signIn: blueskySignIn,
};
