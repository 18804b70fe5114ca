// What a network whose accounts connect by signing in (networks/<name>/connect.ts) declares, instead of an OAuth
// consent page: Bluesky's app passwords, typed into Herald's own form on the server the person names. The route
// that runs it, beside the OAuth callback, is server/connectRoutes.ts.
import type { FetchPolicy } from '../media/fromUrl.ts';
import type { Clock } from '../runtime/clock.ts';
import type { Config } from '../runtime/config.ts';
import type { ConnectTarget } from './oauth.ts';

export interface SignIn {
  /** The server signed in to (an https address; the sandbox's own may be plain http). */
  server: string;
  /** Handle or email. */
  identifier: string;
  password: string;
  /** How the network's servers are reached: the public-address guard, with the configuration's exemptions. */
  outbound: FetchPolicy;
  /** When the session's lifetime starts. */
  clock: Clock;
}

export interface SignInNetwork {
  /** The server the form offers: the network's own when live; the sandbox's (undefined when it has none). */
  defaultServer(config: Config): string | undefined;
  /** The account the credentials sign in to, with the session Herald keeps sealed; refusals are ApiErrors. */
  signIn(x: SignIn): Promise<ConnectTarget>;
  /** Why no server can be signed in to in this configuration (the sandbox without one), with the fix. */
  notConfigured: { message: string; hint: string };
}
