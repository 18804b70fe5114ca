// What one network is to Herald: a folder networks/<name>/ whose index.ts exports one NetworkModule,
// listed once in the registry (networks/index.ts). Everything else that names networks derives from it.
import type { ConnectorModule } from './connector.ts';
import type { ConnectNetwork } from './oauth.ts';
import type { NetworkRules } from './rules.ts';
import type { Simulator } from './sandbox/simulator.ts';
import type { SignInNetwork } from './signIn.ts';

export interface NetworkModule {
  /** Limits and checks of a post (plan checks, the dashboard's counters). */
  rules: NetworkRules;
  /** Publishing and insights; absent while the connector is in progress. */
  connector?: ConnectorModule;
  /** Connecting accounts through the network's OAuth; absent when accounts cannot be connected yet. */
  connect?: ConnectNetwork;
  /** Or by signing in on Herald's own form (Bluesky's app passwords), instead of an OAuth consent page. */
  signIn?: SignInNetwork;
  /**
   * The network's sandbox simulator with its consent page. Loaded on demand, only where the sandbox is
   * served, so that the worker and the CLI never load express or the simulators.
   */
  simulator?: () => Promise<Simulator>;
}
