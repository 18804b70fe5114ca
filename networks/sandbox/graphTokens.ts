// Meta's long-lived tokens (Instagram, Threads): a short-lived one exchanged, a long-lived one refreshed.
import type { Request } from 'express';
import type { Platform } from '../rules.ts';
import { DAY_MS, tokenOf } from './graph.ts';
import { fault } from './graphFaults.ts';
import { params } from './params.ts';
import type { SimulatorContext } from './simulator.ts';
import { sandboxTokenAccount } from './state.ts';
import { issueToken, refreshRefusal } from './tokens.ts';

/** Meta's long-lived tokens (Instagram, Threads) last 60 days. */
const LONG_LIVED_MS = 60 * DAY_MS;

/** The account a Meta token grant is for (the token names it), once the grant type is the one the route takes. */
function grantAccount(req: Request, network: Platform, grantType: string): { token: string; account: string } {
  if (params(req).grant_type !== grantType)
    throw fault(network, [400, { message: `Unsupported grant_type: expected ${grantType}.`, code: 100 }]);
  const token = tokenOf(req) ?? '';
  const account = sandboxTokenAccount(token, 'access');
  if (!account)
    throw fault(network, [400, { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 }]);
  return { token, account };
}

const longLived = async (ctx: SimulatorContext, account: string, from?: string) => ({
  access_token: await issueToken(ctx, 'access', account, LONG_LIVED_MS, from),
  token_type: 'bearer',
  expires_in: LONG_LIVED_MS / 1000,
});

/** A short-lived token exchanged for a long-lived one (Threads' `th_exchange_token`): 60 days. */
export async function longLivedToken(ctx: SimulatorContext, req: Request, grantType: string) {
  const { account } = grantAccount(req, ctx.network, grantType);
  return longLived(ctx, account);
}

/**
 * A long-lived token refreshed with itself: "at least 24 hours old but has not expired", and the new one lasts 60 days
 * (https://developers.facebook.com/docs/threads/get-started/long-lived-tokens/ and
 * https://developers.facebook.com/documentation/instagram-platform/reference/refresh_access_token, read 2026-11-29).
 * An expired one answers Meta's 190/463; the refusal of a young one is not documented, so it is a plain 100.
 */
export async function refreshedLongLivedToken(ctx: SimulatorContext, req: Request, grantType: string) {
  const { token, account } = grantAccount(req, ctx.network, grantType);
  const refusal = await refreshRefusal(ctx, token, { minimumAgeMs: DAY_MS });
  if (refusal === 'expired')
    throw fault(ctx.network, [
      400,
      { message: 'Error validating access token: Session has expired.', code: 190, error_subcode: 463 },
    ]);
  if (refusal === 'young')
    throw fault(ctx.network, [
      400,
      { message: 'The access token can be refreshed only once it is at least 24 hours old.', code: 100 },
    ]);
  return longLived(ctx, account, token);
}
