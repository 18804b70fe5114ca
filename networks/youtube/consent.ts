// YouTube's consent side in the sandbox: Google's sign-in page (the channel's name), the code exchange on
// the token endpoint the simulator serves for refreshes, and channels.list?mine=true for the new channel.
import express from 'express';
import { randomBase62 } from '../../domain/ids.ts';
import { consentRoutes, grantOf, lookup, namedIdentity, redeem, type Field, type Refusal } from '../sandbox/consent.ts';
import { params } from '../sandbox/params.ts';
import type { SimulatorContext } from '../sandbox/simulator.ts';
import { sandboxToken } from '../sandbox/state.ts';
import { issueToken } from '../sandbox/tokens.ts';
import { refreshTokenIssuedMs } from './simulator/channel.ts';

const channelField: Field = { name: 'channel', label: 'Channel name' };

const GOOGLE_REFUSALS: Record<Refusal, [status: number, error: string, description: string]> = {
  invalid: [400, 'invalid_grant', 'Malformed auth code.'],
  expired: [400, 'invalid_grant', 'Bad Request'],
  used: [400, 'invalid_grant', 'Bad Request'],
  client: [401, 'invalid_client', 'The OAuth client was not found.'],
  redirect: [400, 'redirect_uri_mismatch', 'Bad Request'],
  verifier: [400, 'invalid_grant', 'Invalid code verifier.'],
};

/** Google: the code exchange on the token endpoint the simulator serves for refreshes, and channels.list?mine=true. */
function googleRoutes(router: express.Router, ctx: SimulatorContext): void {
  router.post('/token', express.urlencoded({ extended: false }), async (req, res, next) => {
    const p = params(req);
    if (p.grant_type !== 'authorization_code') return next();
    const grant = await redeem(ctx, {
      code: p.code,
      clientId: p.client_id,
      redirectUri: p.redirect_uri,
      verifier: p.code_verifier,
    });
    if (typeof grant === 'string') {
      const [status, error, description] = GOOGLE_REFUSALS[grant];
      return res.status(status).json({ error, error_description: description });
    }
    const refreshToken = await issueToken(ctx, 'refresh', grant.account, null);
    // Its 7 days in a Testing project start now.
    await refreshTokenIssuedMs(ctx, grant.account, refreshToken);
    res.json({
      access_token: sandboxToken('access', grant.account),
      expires_in: 3599,
      // Google's refresh tokens carry no expiry of their own (they die unused for six months); in a Testing
      // project they die after 7 days (the channel's token route refuses them then).
      refresh_token: refreshToken,
      scope: grant.data.scope,
      token_type: 'Bearer',
    });
  });
  // The name given at consent, before Herald has the account whose name the YouTube simulator shows.
  router.get(
    '/youtube/v3/channels',
    lookup(async (req) => {
      const parts = String(req.query.part ?? '')
        .split(',')
        .map((p) => p.trim());
      if (req.query.mine !== 'true' || !parts.every((p) => p === 'id' || p === 'snippet')) return undefined;
      const grant = await grantOf(ctx, /^Bearer (\S+)$/.exec(req.get('Authorization') ?? '')?.[1]);
      if (!grant?.data.name) return undefined;
      return {
        kind: 'youtube#channelListResponse',
        etag: randomBase62(27),
        pageInfo: { totalResults: 1, resultsPerPage: 1 },
        items: [
          {
            kind: 'youtube#channel',
            etag: randomBase62(27),
            id: grant.account,
            ...(parts.includes('snippet')
              ? { snippet: { title: grant.data.name, description: '', publishedAt: grant.createdAt } }
              : {}),
          },
        ],
      };
    }),
  );
}

export const youtubeConsent = consentRoutes({
  page: {
    brand: 'Google',
    label: 'YouTube',
    path: '/o/oauth2/v2/auth',
    wants: 'upload videos to your YouTube account and read their statistics',
    fields: [channelField],
    grant: namedIdentity('youtube', channelField),
    denied: { error: 'access_denied' },
  },
  tokenRoutes: googleRoutes,
});
