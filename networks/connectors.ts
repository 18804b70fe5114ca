// The connectors, by network, and where they send their requests: the network's own hosts
// (NETWORKS=live, with the app's client id and secret from the environment) or the sandbox
// simulators under PUBLIC_URL/sandbox (NETWORKS=sandbox, the default).
import type { Config } from '../runtime/config.ts';
import type { Connector, ConnectorContext } from './connector.ts';
import { facebookConnector } from './facebook.ts';
import { instagramConnector } from './instagram.ts';
import type { Platform } from './rules.ts';
import { sandboxBase } from './sandbox/index.ts';
import { threadsConnector } from './threads.ts';
import { youtubeConnector } from './youtube.ts';

export interface ConnectorModule {
  create(ctx: ConnectorContext): Connector;
  /** The network's hosts by the names the connector uses. */
  liveHosts: Record<string, string>;
  /** The same names pointing into the network's simulator. */
  sandboxHosts(base: string): Record<string, string>;
  /** Environment variables holding the app's client id and secret on the network. */
  clientEnv?: { id: string; secret: string };
}

/** The registry: a network's connector is one module and one line here. */
export const CONNECTORS: Partial<Record<Platform, ConnectorModule>> = {};
CONNECTORS.instagram = instagramConnector;
CONNECTORS.facebook = facebookConnector;
CONNECTORS.threads = threadsConnector;
CONNECTORS.youtube = youtubeConnector;

/** Where the network's requests go under this configuration: its own hosts, or its simulator. */
export function hostsFor(module: ConnectorModule, platform: Platform, config: Config): Record<string, string> {
  return config.networks === 'live' ? module.liveHosts : module.sandboxHosts(sandboxBase(config.publicUrl, platform));
}

/** The app's client id and secret on the network: live mode only, and only when both variables are set. */
export function clientFor(module: ConnectorModule, config: Config, env: NodeJS.ProcessEnv): ConnectorContext['client'] {
  const names = module.clientEnv;
  return config.networks === 'live' && names && env[names.id] && env[names.secret] ? { id: env[names.id]!, secret: env[names.secret]! } : undefined;
}

export function connectorFor(platform: Platform, config: Config, env: NodeJS.ProcessEnv = process.env): Connector | undefined {
  const module = CONNECTORS[platform];
  if (!module) return undefined;
  return module.create({ hosts: hostsFor(module, platform, config), client: clientFor(module, config, env), fetch });
}
