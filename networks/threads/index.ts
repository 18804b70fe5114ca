// Threads (Threads API): one network module, listed in networks/index.ts.
import type { NetworkModule } from '../network.ts';
import { threadsConnect } from './connect.ts';
import { threadsConnectorModule } from './connector.ts';
import { threadsRules } from './rules.ts';

export const threads: NetworkModule = {
  rules: threadsRules,
  connector: threadsConnectorModule,
  connect: threadsConnect,
  simulator: async () => (await import('./simulator.ts')).threadsSimulator,
};
