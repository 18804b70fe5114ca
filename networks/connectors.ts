// The connectors, by network, and where they send their requests: the network's own hosts
// (NETWORKS=live, with the app's client id and secret from the environment) or the sandbox
// simulators under PUBLIC_URL/sandbox, or SANDBOX_URL (NETWORKS=sandbox, the default).
import type { FetchPolicy } from '../media/fromUrl.ts';
import type { Clock } from '../runtime/clock.ts';
import type { Config } from '../runtime/config.ts';
import type { Connector, ConnectorContext, ConnectorModule } from './connector.ts';
import { NETWORKS } from './index.ts';
import type { Platform } from './rules.ts';
import { sandboxBase } from './sandbox/address.ts';

/** Where the network's requests go under this configuration: its own hosts, or its simulator. */
export function hostsFor(module: ConnectorModule, platform: Platform, config: Config): Record<string, string> {
  return config.networks === 'live' ? module.liveHosts : module.sandboxHosts(sandboxBase(config, platform));
}

/** The app's client id and secret on the network: live mode only, and only when both variables are set. */
export function clientFor(module: ConnectorModule, config: Config, env: NodeJS.ProcessEnv): ConnectorContext['client'] {
  const names = module.clientEnv;
  return config.networks === 'live' && names && env[names.id] && env[names.secret]
    ? { id: env[names.id]!, secret: env[names.secret]! }
    : undefined;
}

/**
 * Addresses a person named go through the public-address guard. Exempt: FROM_URL_ALLOW_HOSTS (tests), and in the
 * sandbox its own servers (the simulators and SANDBOX_PDS), which may be plain http on loopback: their origins only,
 * not every port of their hosts.
 */
export function outboundPolicy(config: Config): FetchPolicy {
  const sandbox = config.networks === 'sandbox' ? [config.sandboxUrl ?? config.publicUrl, config.sandboxPds] : [];
  return {
    allowHosts: config.fromUrl.allowHosts,
    allowOrigins: sandbox.filter((url): url is string => Boolean(url)).map((url) => new URL(url).origin),
    extraCaPem: config.fromUrl.extraCaPem,
    httpForExempt: true,
  };
}

/** The network's connector under this configuration, reading `clock`; undefined while it is in progress. */
export function connectorFor(
  platform: Platform,
  config: Config,
  clock: Clock,
  env: NodeJS.ProcessEnv = process.env,
): Connector | undefined {
  const module = NETWORKS[platform].connector;
  if (!module) return undefined;
  return module.create({
    hosts: hostsFor(module, platform, config),
    client: clientFor(module, config, env),
    fetch,
    clock,
    outbound: outboundPolicy(config),
  });
}
