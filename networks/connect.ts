// Connecting accounts, as Herald's OAuth client runs it for any network whose module declares `connect`
// (networks/oauth.ts): the consent page's address, then the code exchange. Live mode talks to the networks
// with the app's client id and secret; sandbox mode to the simulators' consent side, on the same paths
// and wire format. A network whose module declares `signIn` instead (networks/signIn.ts) connects with the
// credentials a person types into Herald's own form, on the server they name.
import { createHash } from 'node:crypto';
import { ApiError, invalidRequest } from '../domain/errors.ts';
import { systemClock, type Clock } from '../runtime/clock.ts';
import type { Config } from '../runtime/config.ts';
import { clientFor, hostsFor, outboundPolicy } from './connectors.ts';
import { NETWORKS, PLATFORMS } from './index.ts';
import type { ConnectTarget, NotConnected } from './oauth.ts';
import type { Platform } from './rules.ts';
import { SANDBOX_CLIENT, sandboxBase } from './sandbox/address.ts';

/** Network identifiers of the spec that are not in this version's contract at all. */
const NOT_YET_AVAILABLE: Record<string, string> = { x: 'X', linkedin: 'LinkedIn', pinterest: 'Pinterest' };

/** The networks whose accounts can be connected: those with a connector and a connect or sign-in module. */
const CONNECTABLE = PLATFORMS.filter((p) => (NETWORKS[p].connect || NETWORKS[p].signIn) && NETWORKS[p].connector);

/** Whether the network's accounts connect by signing in on Herald's form rather than at the network's page. */
export const signsIn = (platform: Platform) => Boolean(NETWORKS[platform].signIn);

/** "A, B, C or D". */
const either = (words: string[]) =>
  words.length > 1 ? `${words.slice(0, -1).join(', ')} or ${words.at(-1)}` : words.join('');

export interface ConnectFlow {
  platform: Platform;
  label: string;
  /** The consent page's address, carrying `state` (and, with PKCE, the challenge of `codeVerifier`). */
  authorizeUrl(state: string, codeVerifier: string): string;
  /**
   * Exchanges the code and finds the accounts the grant covers, and those it reached that cannot be connected
   * (with why); refuses a grant that covers none, naming those.
   */
  exchange(code: string, codeVerifier: string): Promise<{ targets: ConnectTarget[]; notConnected: NotConnected[] }>;
}

/** How many of the accounts that cannot be connected a sentence names; the rest are counted. */
const NAMED_AT_MOST = 10;

/** "Not connected: A (why); B (why)." for the person who connected, or empty. */
export function notConnectedSentence(notConnected: NotConnected[]): string {
  if (!notConnected.length) return '';
  const named = notConnected.slice(0, NAMED_AT_MOST).map((n) => `${n.name} (${n.reason})`);
  const more = notConnected.length - named.length;
  return `Not connected: ${named.join('; ')}${more ? `; and ${more} more` : ''}.`;
}

/** Refuses names that are not networks, and networks that cannot be connected yet. */
function connectable(platform: string): Platform {
  if ((CONNECTABLE as string[]).includes(platform)) return platform as Platform;
  const label = Object.hasOwn(NOT_YET_AVAILABLE, platform)
    ? NOT_YET_AVAILABLE[platform]
    : Object.hasOwn(NETWORKS, platform)
      ? NETWORKS[platform as Platform].rules.label
      : undefined;
  if (label) {
    throw new ApiError(
      400,
      'network_unavailable',
      `${label} accounts cannot be connected yet: its connector is not available in this version.`,
      `Connect a ${either(CONNECTABLE.map((p) => NETWORKS[p].rules.label))} account instead.`,
    );
  }
  throw invalidRequest(`platform "${platform}" is not a network Herald knows.`, `Use ${either(CONNECTABLE)}.`);
}

/**
 * The connect flow of `platform` under this configuration. Refuses names that are not networks,
 * networks that cannot be connected yet, and (live mode) networks whose app variables are not set.
 */
export function connectFlow(
  platform: string,
  config: Config,
  env: NodeJS.ProcessEnv = process.env,
  clock: Clock = systemClock,
): ConnectFlow {
  const p = connectable(platform);
  const label = NETWORKS[p].rules.label;
  const network = NETWORKS[p].connect;
  if (!network)
    throw invalidRequest(
      `${label} accounts connect by signing in on Herald's form, not at a consent page.`,
      `Connect it from the accounts page of the dashboard.`,
    );
  const module = NETWORKS[p].connector!;
  const redirectUri = `${config.publicUrl}/auth/connect/${p}/callback`;
  const client = config.networks === 'live' ? clientFor(module, config, env) : SANDBOX_CLIENT;
  if (!client) {
    const names = module.clientEnv ? `${module.clientEnv.id} and ${module.clientEnv.secret}` : 'its client variables';
    throw new ApiError(
      503,
      'network_not_configured',
      `Connecting ${label} accounts needs ${names}, which are not set.`,
      `Register Herald as an app at ${label} with the callback address ${redirectUri}, ` +
        `set ${names} to ${module.clientEnv?.what ?? 'its client id and secret'}, then restart Herald.`,
    );
  }
  const hosts = hostsFor(module, p, config);
  const configId = network.configIdEnv ? env[network.configIdEnv]?.trim() : undefined;
  const origin = config.networks === 'live' ? network.authorize.liveOrigin : sandboxBase(config, p);
  return {
    platform: p,
    label,
    authorizeUrl(state, codeVerifier) {
      const url = new URL(`${origin}${network.authorize.path}`);
      const params: Record<string, string> = {
        [network.clientIdParam ?? 'client_id']: client.id,
        redirect_uri: redirectUri,
        response_type: 'code',
        // Facebook Login for Business: the configuration names the permissions, in place of a scope
        // (https://developers.facebook.com/docs/facebook-login/facebook-login-for-business, read 2026-11-29).
        ...(configId ? { config_id: configId } : { scope: network.scopes.join(network.scopeSeparator) }),
        state,
        ...network.extraParams,
      };
      if (network.pkce)
        Object.assign(params, {
          code_challenge: createHash('sha256').update(codeVerifier).digest('base64url'),
          code_challenge_method: 'S256',
        });
      for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
      return url.toString();
    },
    async exchange(code, codeVerifier) {
      const found = await network.exchange({ hosts, client, redirectUri, code, codeVerifier, clock });
      const { targets: all, notConnected } = Array.isArray(found) ? { targets: found, notConnected: [] } : found;
      const targets = [...new Map(all.map((t) => [t.externalId, t])).values()];
      if (!targets.length)
        throw new ApiError(
          409,
          'nothing_to_connect',
          [network.nothingFound.message, notConnectedSentence(notConnected)].filter(Boolean).join(' '),
          network.nothingFound.hint,
          network.nothingFound.reason ? { reason: network.nothingFound.reason } : {},
        );
      return { targets, notConnected };
    },
  };
}

export interface SignInFlow {
  platform: Platform;
  label: string;
  /** The server the form offers (the network's own, or the sandbox's); undefined when there is none. */
  defaultServer: string | undefined;
  /** The refusal when there is no server to sign in to: what the operator must set up. */
  notConfigured(): ApiError;
  /** The account the credentials sign in to, on `server` or the default one. */
  signIn(fields: { server?: string; identifier: string; password: string }): Promise<ConnectTarget[]>;
}

/** The sign-in flow of `platform`: refuses names that are not networks, and networks that connect through OAuth. */
export function signInFlow(platform: string, config: Config, clock: Clock = systemClock): SignInFlow {
  const p = connectable(platform);
  const label = NETWORKS[p].rules.label;
  const network = NETWORKS[p].signIn;
  if (!network)
    throw invalidRequest(
      `${label} accounts connect at ${label}'s own consent page, not with a password typed here.`,
      `Open /auth/connect/${p} from the accounts page of the dashboard.`,
    );
  const defaultServer = network.defaultServer(config);
  // 409, not the OAuth flow's 503: Herald is up, this configuration just offers no server to sign in to.
  const notConfigured = () =>
    new ApiError(409, 'network_not_configured', network.notConfigured.message, network.notConfigured.hint, {
      platform: p,
    });
  return {
    platform: p,
    label,
    defaultServer,
    notConfigured,
    async signIn({ server, identifier, password }) {
      const at = server || defaultServer;
      if (!at) throw notConfigured();
      return [await network.signIn({ server: at, identifier, password, outbound: outboundPolicy(config), clock })];
    },
  };
}
