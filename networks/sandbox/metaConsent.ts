// Meta's consent side, shared by the Facebook, Instagram and Threads simulators: the answer to a
// cancelled consent, code refusals in Graph's error body, and Facebook Login's token endpoints (the code,
// the long-lived token, me/accounts with the Pages a person granted, and the Pages of their businesses).
import type express from 'express';
import type { Request, RequestHandler } from 'express';
import { randomBase62 } from '../../domain/ids.ts';
import type { Platform } from '../rules.ts';
import { SANDBOX_CLIENT } from './address.ts';
import { grantOf, lookup, redeem, type GrantData, type Page, type Refusal } from './consent.ts';
import { pagedList, pickFields, tokenOf } from './graph.ts';
import { fault, GraphFault } from './graphFaults.ts';
import { params } from './params.ts';
import type { SimulatorContext } from './simulator.ts';
import { sandboxToken, sandboxTokenAccount } from './state.ts';

export const META_DENIED = {
  error: 'access_denied',
  error_code: '200',
  error_description: 'Permissions error',
  error_reason: 'user_denied',
};
export const newFacebookUser = () => `sandbox-user-${randomBase62(12)}`;

const META_REFUSALS: Record<Refusal, [message: string, subcode?: number]> = {
  invalid: ['Invalid verification code format.'],
  expired: ['This authorization code has expired.', 36007],
  used: ['This authorization code has been used.', 36009],
  client: ['Error validating application. Invalid application ID.'],
  redirect: [
    'Error validating verification code. Please make sure your redirect_uri is identical to the one you used ' +
      'in the OAuth dialog request',
    36008,
  ],
  verifier: ['Invalid code verifier.'],
};

export const metaRefusal = (network: Platform, refusal: Refusal) => {
  const [message, subcode] = META_REFUSALS[refusal];
  return fault(network, [
    400,
    { message, code: 100, ...(subcode ? { error_subcode: subcode } : {}), type: 'OAuthException' },
  ]);
};

/** A JSON endpoint without a token (code exchanges): a GraphFault is the network's error body. */
export function answer(network: Platform, handler: (req: Request) => Promise<object>): RequestHandler {
  return async (req, res) => {
    try {
      res.json(await handler(req));
    } catch (err) {
      const refusal =
        err instanceof GraphFault
          ? err
          : fault(network, [
              500,
              {
                message: `An unexpected error has occurred. (sandbox: ${(err as Error).message})`,
                code: 2,
                is_transient: true,
              },
            ]);
      res.status(refusal.httpStatus).json(refusal.body);
    }
  };
}

/** Facebook Login (Facebook Pages, and Instagram accounts through their Page): code, long-lived token, me/accounts. */
export function facebookLoginRoutes(router: express.Router, ctx: SimulatorContext): void {
  const { network } = ctx;
  router.get(
    '/:version/oauth/access_token',
    answer(network, async (req) => {
      const p = params(req);
      if (p.client_id !== SANDBOX_CLIENT.id) throw metaRefusal(network, 'client');
      if (p.grant_type === 'fb_exchange_token') {
        const user = sandboxTokenAccount(p.fb_exchange_token ?? '', 'access');
        if (!user)
          throw fault(network, [400, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 }]);
        return { access_token: sandboxToken('access', user), token_type: 'bearer', expires_in: 60 * 86_400 };
      }
      const grant = await redeem(ctx, { code: p.code, clientId: p.client_id, redirectUri: p.redirect_uri });
      if (typeof grant === 'string') throw metaRefusal(network, grant);
      return { access_token: sandboxToken('access', grant.account), token_type: 'bearer', expires_in: 3600 };
    }),
  );
  const pageFields = (page: Page, fields: string | undefined, own: boolean) =>
    pickFields(
      {
        id: page.id,
        name: page.name,
        // A Page token only for a Page the person may act on; Herald is then told why the others are missing.
        access_token: page.unassigned ? undefined : sandboxToken('access', page.id),
        category: 'Brand',
        tasks: own ? ['ADVERTISE', 'ANALYZE', 'CREATE_CONTENT', 'MESSAGING', 'MODERATE', 'MANAGE'] : undefined,
        instagram_business_account: page.instagram && { id: page.instagram.id, username: page.instagram.username },
      },
      // Nested field lists (`instagram_business_account{id,username}`) answer their whole object.
      fields?.replace(/\{[^}]*\}/g, ''),
    );
  // Every list pages by cursor (sandbox/graph.ts pagedList), as Graph's do.
  router.get(
    '/:version/me/accounts',
    lookup(async (req) => {
      const pages = (await grantOf(ctx, tokenOf(req)))?.data.pages;
      if (!pages) return undefined;
      return pagedList(
        req,
        pages.map((page) => pageFields(page, params(req).fields, true)),
      );
    }),
  );
  // https://developers.facebook.com/docs/graph-api/reference/user/businesses (read 2026-11-29): the businesses
  // the person belongs to, with business_management.
  router.get(
    '/:version/me/businesses',
    lookup(async (req) => {
      const grant = await grantOf(ctx, tokenOf(req));
      if (!grant) return undefined;
      if (!grantedScope(grant.data, 'business_management')) throw missingPermission(network, 'business_management');
      return pagedList(
        req,
        (grant.data.businesses ?? []).map((b) => pickFields({ id: b.id, name: b.name }, params(req).fields)),
      );
    }),
  );
  // Business Owned Pages and Business Client Pages (marketing-api/reference/business/owned_pages and
  // client_pages, read 2026-11-29).
  for (const [edge, side] of [
    ['owned_pages', 'owned'],
    ['client_pages', 'client'],
  ] as const) {
    router.get(
      `/:version/:business/${edge}`,
      lookup(async (req) => {
        const grant = await grantOf(ctx, tokenOf(req));
        const business = grant?.data.businesses?.find((b) => b.id === req.params.business);
        if (!grant || !business) return undefined;
        if (!grantedScope(grant.data, 'business_management')) throw missingPermission(network, 'business_management');
        return pagedList(
          req,
          business[side].map((page) => pageFields(page, params(req).fields, false)),
        );
      }),
    );
  }
}

/**
 * Whether the grant covers a permission: Login for Business grants what its configuration names, which the
 * sandbox takes to be every permission its app asks for.
 */
const grantedScope = (grant: GrantData, scope: string) =>
  Boolean(grant.configId) || grant.scope.split(/[\s,]+/).includes(scope);

const missingPermission = (network: Platform, scope: string) =>
  fault(network, [403, { message: `(#200) Requires ${scope} permission to manage the object`, code: 200 }]);
