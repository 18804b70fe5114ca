// Threads' consent side in the sandbox: the sign-in page (the profile's name), the code for a
// short-lived token (POST), that for a long-lived one, and the profile.
import express from 'express';
import { consentRoutes, grantOf, lookup, namedIdentity, redeem, type Field } from '../sandbox/consent.ts';
import { graphRoute, pickFields, tokenOf } from '../sandbox/graph.ts';
import { fault } from '../sandbox/graphFaults.ts';
import { longLivedToken } from '../sandbox/graphTokens.ts';
import { params } from '../sandbox/params.ts';
import { answer, META_DENIED, metaRefusal } from '../sandbox/metaConsent.ts';
import type { SimulatorContext } from '../sandbox/simulator.ts';
import { sandboxToken } from '../sandbox/state.ts';

const threadsField: Field = { name: 'username', label: 'Threads username' };

function threadsRoutes(router: express.Router, ctx: SimulatorContext): void {
  router.post(
    '/oauth/access_token',
    express.urlencoded({ extended: false }),
    answer('threads', async (req) => {
      const p = params(req);
      if (p.grant_type !== 'authorization_code')
        throw fault('threads', [
          400,
          { message: 'Unsupported grant_type: expected authorization_code.', code: 100, type: 'OAuthException' },
        ]);
      const grant = await redeem(ctx, { code: p.code, clientId: p.client_id, redirectUri: p.redirect_uri });
      if (typeof grant === 'string') throw metaRefusal('threads', grant);
      return { access_token: sandboxToken('access', grant.account), user_id: grant.account };
    }),
  );
  router.get(
    '/access_token',
    graphRoute('threads', (req) => longLivedToken(ctx, req, 'th_exchange_token')),
  );
  router.get(
    '/:version/me',
    lookup(async (req) => {
      const grant = await grantOf(ctx, tokenOf(req));
      return grant?.data.name
        ? pickFields({ id: grant.account, username: grant.data.name, name: grant.data.name }, params(req).fields)
        : undefined;
    }),
  );
}

export const threadsConsent = consentRoutes({
  page: {
    brand: 'Threads',
    label: 'Threads',
    path: '/oauth/authorize',
    wants: 'publish to your Threads account and read its insights',
    fields: [threadsField],
    grant: namedIdentity('threads', threadsField),
    denied: META_DENIED,
  },
  tokenRoutes: threadsRoutes,
});
