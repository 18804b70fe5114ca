// TikTok's consent side in the sandbox: Login Kit's authorization page (the account's display name), and
// the token endpoint /v2/oauth/token/ for both grants TikTok has: the code for an access token and a refresh token, and
// a refresh token for new ones. Refresh tokens rotate: "The previous refresh token stops working once a new one is
// issued", so one used again (or expired) is refused with invalid_grant.
// https://developers.tiktok.com/docs/en/oauth-refresh-a-user-access-token (read 2026-11-29)
import express, { type Response } from 'express';
import { randomBase62 } from '../../domain/ids.ts';
import { SANDBOX_CLIENT } from '../sandbox/address.ts';
import { consentRoutes, namedIdentity, redeem, type Field, type Refusal } from '../sandbox/consent.ts';
import { params } from '../sandbox/params.ts';
import type { SimulatorContext } from '../sandbox/simulator.ts';
import { sandboxToken, sandboxTokenAccount } from '../sandbox/state.ts';
import { issueToken, refreshRefusal } from '../sandbox/tokens.ts';

const nameField: Field = { name: 'display_name', label: 'TikTok display name' };

/**
 * TikTok's token lifetimes, in seconds: 2 hours and 180 days (https://developers.tiktok.com/docs/zh-Hans/
 * oauth-user-access-token-management, updated 2026-11-05; the older page said 24 hours and 365 days).
 */
export const ACCESS_SECONDS = 7_200;
const REFRESH_SECONDS = 15_552_000;

const REFUSALS: Record<Refusal, [error: string, description: string]> = {
  invalid: ['invalid_grant', 'Authorization code is invalid.'],
  expired: ['invalid_grant', 'Authorization code is expired.'],
  used: ['invalid_grant', 'Authorization code has been used.'],
  client: ['invalid_client', 'Client key or secret is incorrect.'],
  redirect: ['invalid_request', 'The redirect_uri does not match the one of the authorization request.'],
  verifier: ['invalid_grant', 'Code verifier is invalid.'],
};

const tokenError = (res: Response, error: string, description: string) =>
  res.status(400).json({ error, error_description: description, log_id: randomBase62(20) });

const tokens = async (ctx: SimulatorContext, account: string, scope: string, from?: string) => ({
  access_token: sandboxToken('access', account),
  expires_in: ACCESS_SECONDS,
  open_id: account,
  refresh_expires_in: REFRESH_SECONDS,
  refresh_token: await issueToken(ctx, 'refresh', account, REFRESH_SECONDS * 1000, from),
  scope,
  token_type: 'Bearer',
});

function tokenRoutes(router: express.Router, ctx: SimulatorContext): void {
  router.post('/v2/oauth/token/', express.urlencoded({ extended: false }), async (req, res) => {
    const p = params(req);
    if (p.grant_type === 'authorization_code') {
      if (p.client_key !== SANDBOX_CLIENT.id || p.client_secret !== SANDBOX_CLIENT.secret)
        return tokenError(res, ...REFUSALS.client);
      const grant = await redeem(ctx, {
        code: p.code,
        clientId: p.client_key,
        redirectUri: p.redirect_uri,
        verifier: p.code_verifier,
      });
      if (typeof grant === 'string') return tokenError(res, ...REFUSALS[grant]);
      return res.json(await tokens(ctx, grant.account, grant.data.scope));
    }
    // Refreshes come from the connector, which holds no app secret in the sandbox (as YouTube's simulator).
    if (p.grant_type === 'refresh_token') {
      const account = sandboxTokenAccount(p.refresh_token ?? '', 'refresh');
      const known = account ? await ctx.state.account(account) : undefined;
      if (
        !account ||
        (known && known.tokens !== 'ok') ||
        (await refreshRefusal(ctx, p.refresh_token!, { rotates: true }))
      )
        return tokenError(res, 'invalid_grant', 'Refresh token is invalid or expired.');
      const scope = 'user.info.basic,user.info.stats,video.publish,video.list';
      return res.json(await tokens(ctx, account, scope, p.refresh_token));
    }
    tokenError(res, 'unsupported_grant_type', `grant_type ${p.grant_type ?? ''} is not supported.`);
  });
}

export const tiktokConsent = consentRoutes({
  page: {
    brand: 'TikTok',
    label: 'TikTok',
    path: '/v2/auth/authorize/',
    wants: 'post videos and photos to your TikTok account and read their counts',
    fields: [nameField],
    grant: namedIdentity('tiktok', nameField),
    denied: { error: 'access_denied', error_description: 'The user denied the authorization.' },
  },
  tokenRoutes,
});
