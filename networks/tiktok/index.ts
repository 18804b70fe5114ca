// TikTok (Content Posting API, direct post): one network module, listed in networks/index.ts.
import type { NetworkModule } from '../network.ts';
import { tiktokConnect } from './connect.ts';
import { tiktokConnectorModule } from './connector.ts';
import { tiktokRules } from './rules.ts';

export const tiktok: NetworkModule = {
  rules: tiktokRules,
  connector: tiktokConnectorModule,
  connect: tiktokConnect,
  simulator: async () => (await import('./simulator/index.ts')).tiktokSimulator,
};
