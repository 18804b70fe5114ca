// Connecting YouTube channels: Google's OAuth consent (with PKCE), the code for tokens, then the channel.
import { call, connectFailed, expiresAt, type ConnectNetwork } from '../oauth.ts';

export const youtubeConnect: ConnectNetwork = {
  authorize: { liveOrigin: 'https://accounts.google.com', path: '/o/oauth2/v2/auth' },
  // upload for videos.insert; force-ssl for thumbnails, playlists and statistics.
  scopes: ['https://www.googleapis.com/auth/youtube.upload', 'https://www.googleapis.com/auth/youtube.force-ssl'],
  scopeSeparator: ' ',
  pkce: true,
  // Google sends a refresh token only when consent is given, so every connection asks for it again.
  extraParams: { access_type: 'offline', prompt: 'consent', include_granted_scopes: 'true' },
  async exchange({ hosts, client, redirectUri, code, codeVerifier, clock }) {
    const token = await call<{ access_token: string; refresh_token?: string; expires_in?: number }>(
      'YouTube',
      'POST',
      `${hosts.oauth}/token`,
      {
        grant_type: 'authorization_code',
        code,
        redirect_uri: redirectUri,
        client_id: client.id,
        client_secret: client.secret,
        code_verifier: codeVerifier,
      },
    );
    if (!token.refresh_token) throw connectFailed('YouTube', 'the token answer holds no refresh token');
    const channels = await call<{ items?: { id: string; snippet?: { title?: string } }[] }>(
      'YouTube',
      'GET',
      `${hosts.api}/channels`,
      { part: 'snippet', mine: 'true' },
      token.access_token,
    );
    return (channels.items ?? []).slice(0, 1).map((c) => ({
      externalId: c.id,
      displayName: c.snippet?.title || c.id,
      credentials: {
        accessToken: token.access_token,
        refreshToken: token.refresh_token,
        ...expiresAt(clock, token.expires_in),
      },
    }));
  },
  nothingFound: {
    reason: 'youtube_no_channel',
    message: 'The Google account that gave access has no YouTube channel.',
    hint: 'Create a channel at youtube.com, then connect again.',
  },
};
