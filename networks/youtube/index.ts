// YouTube (Data API v3): one network module, listed in networks/index.ts.
import type { NetworkModule } from '../network.ts';
import { youtubeConnect } from './connect.ts';
import { youtubeConnectorModule } from './connector.ts';
import { youtubeRules } from './rules.ts';

export const youtube: NetworkModule = {
  rules: youtubeRules,
  connector: youtubeConnectorModule,
  connect: youtubeConnect,
  simulator: async () => (await import('./simulator/index.ts')).youtubeSimulator,
};
