// Facebook Pages (Pages API): one network module, listed in networks/index.ts.
import type { NetworkModule } from '../network.ts';
import { facebookConnect } from './connect.ts';
import { facebookConnectorModule } from './connector.ts';
import { facebookRules } from './rules.ts';

export const facebook: NetworkModule = {
  rules: facebookRules,
  connector: facebookConnectorModule,
  connect: facebookConnect,
  simulator: async () => (await import('./simulator.ts')).facebookSimulator,
};
