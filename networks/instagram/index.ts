// Instagram (Graph API content publishing, business and creator accounts): one network module, listed in
// networks/index.ts.
import type { NetworkModule } from '../network.ts';
import { instagramConnect } from './connect.ts';
import { instagramConnectorModule } from './connector.ts';
import { instagramRules } from './rules.ts';

export const instagram: NetworkModule = {
  rules: instagramRules,
  connector: instagramConnectorModule,
  connect: instagramConnect,
  simulator: async () => (await import('./simulator.ts')).instagramSimulator,
};
