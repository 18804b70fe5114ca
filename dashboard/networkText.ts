// `virtual:network-text`: the networks' names and text limits, read from the server's own network
// modules when the dashboard is built (and when its tests run), so its counters cannot drift.
import type { Plugin } from 'vite';
import { NETWORKS } from '../networks/index.ts';

const ID = 'virtual:network-text';

export function networkText(): Plugin {
  return {
    name: 'herald-network-text',
    resolveId: (source) => (source === ID ? '\0' + ID : undefined),
    load(source) {
      if (source !== '\0' + ID) return undefined;
      const networks = Object.values(NETWORKS).map(
        ({ rules: { platform, label, available, textLimits, choices } }) => ({
          platform,
          label,
          available,
          textLimits,
          choices: choices ?? {},
        }),
      );
      return `export default ${JSON.stringify(networks)};`;
    },
  };
}
