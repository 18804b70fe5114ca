// Connecting Threads profiles: Threads' own OAuth, a short-lived token for a long-lived one, then the profile.
import { call, expiresAt, type ConnectNetwork } from '../oauth.ts';

export const threadsConnect: ConnectNetwork = {
  // The Authorization Window, on threads.com
  // (https://developers.facebook.com/docs/threads/get-started/get-access-tokens-and-permissions, read 2026-11-29).
  authorize: { liveOrigin: 'https://threads.com', path: '/oauth/authorize' },
  scopes: ['threads_basic', 'threads_content_publish', 'threads_manage_insights'],
  scopeSeparator: ',',
  pkce: false,
  // A short-lived token (1 hour) for a long-lived one (60 days), which the worker refreshes.
  async exchange({ hosts, client, redirectUri, code, clock }) {
    const short = await call<{ access_token: string }>('Threads', 'POST', `${hosts.graph}/oauth/access_token`, {
      client_id: client.id,
      client_secret: client.secret,
      grant_type: 'authorization_code',
      redirect_uri: redirectUri,
      code,
    });
    const long = await call<{ access_token: string; expires_in?: number }>(
      'Threads',
      'GET',
      `${hosts.graph}/access_token`,
      { grant_type: 'th_exchange_token', client_secret: client.secret, access_token: short.access_token },
    );
    const me = await call<{ id: string; username?: string }>(
      'Threads',
      'GET',
      `${hosts.graph}/v1.0/me`,
      { fields: 'id,username' },
      long.access_token,
    );
    return [
      {
        externalId: me.id,
        displayName: me.username || me.id,
        credentials: { accessToken: long.access_token, ...expiresAt(clock, long.expires_in) },
      },
    ];
  },
  nothingFound: { message: 'Threads named no profile for this grant.', hint: 'Connect again.' },
};
