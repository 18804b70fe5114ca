// Connecting Bluesky accounts the way Bluesky's own clients do: a handle (or email) and an app password, on the
// server the person names (https://bsky.social unless their account lives elsewhere). Herald keeps the session it
// gets (access and refresh tokens, sealed), never the password, and refuses the account's own password: an app
// password can be revoked on its own, from Bluesky's settings, without changing the account's.
// https://atproto.com/specs/xrpc#authentication (com.atproto.server.createSession)
import { ApiError, rateLimited } from '../../domain/errors.ts';
import type { Clock } from '../../runtime/clock.ts';
import { connectFailed, quoted, type ConnectTarget } from '../oauth.ts';
import type { SignInNetwork } from '../signIn.ts';
import { agentOn, refusal, tokenClaims, Unreachable } from './api.ts';
import { isXrpcError } from './atproto.ts';

export const LIVE_SERVER = 'https://bsky.social';
/** The scopes of a session opened with an app password (a privileged one may also read direct messages). */
const APP_PASSWORD_SCOPES = ['com.atproto.appPass', 'com.atproto.appPassPrivileged'];
/** How long the named server may take to answer a sign-in call: a silent one must not hold the person's request. */
export const SIGN_IN_WAIT_MS = 10_000;

/** The PDS a DID document names (#atproto_pds), where the account's records live. */
export function pdsOf(didDoc: unknown): string | undefined {
  const services = (didDoc as { service?: { id?: string; type?: string; serviceEndpoint?: unknown }[] })?.service;
  const pds = services?.find((s) => s.id?.endsWith('#atproto_pds') && s.type === 'AtprotoPersonalDataServer');
  return typeof pds?.serviceEndpoint === 'string' ? pds.serviceEndpoint.replace(/\/+$/, '') : undefined;
}

/** The session's credentials as Herald stores them (sealed). */
export function credentialsOf(
  session: { accessJwt: string; refreshJwt: string; didDoc?: unknown },
  servers: { service: string; pds: string },
) {
  const exp = tokenClaims(session.accessJwt).exp;
  return {
    accessToken: session.accessJwt,
    refreshToken: session.refreshJwt,
    ...(exp ? { expiresAt: new Date(exp * 1000).toISOString() } : {}),
    servers: { service: servers.service, pds: pdsOf(session.didDoc) ?? servers.pds },
  };
}

const signInRefused = (words: string) =>
  new ApiError(
    400,
    'app_password_refused',
    `Bluesky answered: "${quoted(words)}". Nothing was connected.`,
    'Check the handle (or the email) and the app password, and that the server is the one the account lives on.',
  );

function serverAddress(text: string): string {
  const url = URL.canParse(text) ? new URL(text) : undefined;
  if (!url || !/^https?:$/.test(url.protocol) || url.pathname.length > 1 || url.search)
    throw new ApiError(
      400,
      'invalid_request',
      `server "${text}" is not the address of a server, such as ${LIVE_SERVER}.`,
      `Give the server's address alone, such as ${LIVE_SERVER} (where most Bluesky accounts live).`,
    );
  return url.origin;
}

/**
 * `call` with a signal that aborts it once SIGN_IN_WAIT_MS have passed on the injected clock; it then fails with
 * Unreachable, as a server that cannot be reached does.
 */
function within<T>(clock: Clock, server: string, call: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const abort = new AbortController();
  const gaveUp = clock.sleep(SIGN_IN_WAIT_MS).then(() => {
    abort.abort();
    throw new Unreachable(`${server} gave no answer within ${SIGN_IN_WAIT_MS / 1000} seconds`);
  });
  return Promise.race([call(abort.signal), gaveUp]);
}

export const blueskySignIn: SignInNetwork = {
  defaultServer: (config) => (config.networks === 'live' ? LIVE_SERVER : config.sandboxPds),
  notConfigured: {
    message:
      'Bluesky accounts in the sandbox connect to a test server (a PDS), and SANDBOX_PDS names none. Nothing was ' +
      'connected.',
    hint:
      'Start the reference PDS with `npx tsx scripts/blueskyPds.ts`, set SANDBOX_PDS to the address it prints and ' +
      'restart Herald; or run Herald with NETWORKS=live to connect real Bluesky accounts.',
  },

  async signIn({ server: named, identifier, password, outbound, clock }): Promise<ConnectTarget> {
    const server = serverAddress(named);
    const agent = agentOn(server, outbound);
    let session;
    try {
      ({ data: session } = await within(clock, server, (signal) =>
        agent.com.atproto.server.createSession(
          { identifier: identifier.trim().replace(/^@/, ''), password },
          { signal },
        ),
      ));
    } catch (err) {
      const cause = isXrpcError(err) ? err.cause : err;
      if (cause instanceof ApiError)
        throw new ApiError(
          400,
          'server_not_allowed',
          `${server} is not a public https address, so Herald does not connect to it. Nothing was connected.`,
          `Give the account's server by its public https address, such as ${LIVE_SERVER}.`,
        );
      if (cause instanceof Unreachable) throw connectFailed('Bluesky', cause.message);
      if (!isXrpcError(err)) throw err;
      const failure = refusal(err, clock.now());
      if (err.error === 'AuthFactorTokenRequired')
        throw new ApiError(
          400,
          'app_password_required',
          'Bluesky asked for the code it emails on sign-in: this is the account’s own password. Nothing was connected.',
          'Create an app password in Bluesky (Settings, Privacy and security, App passwords) and connect with it.',
        );
      if (failure.kind === 'rate_limited')
        throw rateLimited(
          clock.now() + (failure.retryAfterSeconds ?? 300) * 1000,
          clock.now(),
          `Bluesky answered: "${quoted(failure.message)}".`,
        );
      if (failure.kind === 'token_rejected') throw signInRefused(err.message);
      throw connectFailed('Bluesky', failure.message);
    }
    if (!APP_PASSWORD_SCOPES.includes(tokenClaims(session.accessJwt).scope ?? '')) {
      // Herald does not keep a session of the account's own password: it is ended at once.
      await within(clock, server, (signal) =>
        agentOn(server, outbound, { token: session.refreshJwt }).com.atproto.server.deleteSession(undefined, {
          signal,
        }),
      ).catch(() => {});
      throw new ApiError(
        400,
        'app_password_required',
        'This is the account’s own password; Herald connects Bluesky accounts with an app password only. Nothing ' +
          'was connected.',
        'Create an app password in Bluesky (Settings, Privacy and security, App passwords) and connect with it.',
      );
    }
    return {
      externalId: session.did,
      displayName: session.handle,
      credentials: credentialsOf(session, { service: server, pds: server }),
    };
  },
};
