// Connecting TikTok accounts: Login Kit for Web v2 (the authorization code, then the account's own
// profile). TikTok asks web apps for no PKCE (its desktop and mobile kits use it), so none is sent. The
// access token lives 24 hours and the refresh token 365 days; the connector refreshes before each use.
// https://developers.tiktok.com/doc/login-kit-web, .../doc/oauth-user-access-token-management
import { call, expiresAt, type ConnectNetwork } from '../oauth.ts';

export const TIKTOK_SCOPES = ['user.info.basic', 'user.info.stats', 'video.publish', 'video.list'];

export const tiktokConnect: ConnectNetwork = {
  authorize: { liveOrigin: 'https://www.tiktok.com', path: '/v2/auth/authorize/' },
  // basic for the profile, publish for direct posts, list and stats for the analytics counters.
  scopes: TIKTOK_SCOPES,
  scopeSeparator: ',',
  clientIdParam: 'client_key',
  pkce: false,
  async exchange({ hosts, client, redirectUri, code, clock }) {
    const token = await call<{ access_token: string; refresh_token: string; expires_in?: number; open_id: string }>(
      'TikTok',
      'POST',
      `${hosts.api}/v2/oauth/token/`,
      {
        client_key: client.id,
        client_secret: client.secret,
        code,
        grant_type: 'authorization_code',
        redirect_uri: redirectUri,
      },
    );
    const me = await call<{ data: { user?: { open_id: string; display_name?: string } } }>(
      'TikTok',
      'GET',
      `${hosts.api}/v2/user/info/`,
      { fields: 'open_id,display_name,avatar_url' },
      token.access_token,
    );
    const user = me.data.user;
    return user
      ? [
          {
            externalId: user.open_id,
            displayName: user.display_name || user.open_id,
            credentials: {
              accessToken: token.access_token,
              refreshToken: token.refresh_token,
              ...expiresAt(clock, token.expires_in),
            },
          },
        ]
      : [];
  },
  nothingFound: { message: 'TikTok named no account for this grant.', hint: 'Connect again.' },
};
