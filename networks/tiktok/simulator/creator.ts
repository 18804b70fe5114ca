// Who a call is for: the account its token names, and what that account allows, which follows from its name.
import type { Request } from 'express';
import { grantOf } from '../../sandbox/consent.ts';
import type { SimulatorContext } from '../../sandbox/simulator.ts';
import { sandboxTokenAccount } from '../../sandbox/state.ts';
import { FAULTS } from './faults.ts';
import { LIMITS } from './limits.ts';

export interface Creator {
  id: string;
  name: string;
  username: string;
  audited: boolean;
  /** The account is set to private in TikTok. */
  privateAccount: boolean;
  privacyOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  longReview: boolean;
}

export function creatorOf(id: string, name: string): Creator {
  return {
    id,
    name,
    username: name.toLowerCase().replace(/[^a-z0-9_.]/g, '') || id,
    audited: !/unaudited/i.test(name),
    privateAccount: /private/i.test(name),
    privacyOptions: /private/i.test(name) ? ['FOLLOWER_OF_CREATOR', 'SELF_ONLY'] : LIMITS.privacyLevels,
    commentDisabled: /no ?comments/i.test(name),
    duetDisabled: /no ?duets/i.test(name),
    longReview: /review/i.test(name),
  };
}

/**
 * The creator a call's token is for, when its consent granted `scope`, the one the endpoint needs; refuses other
 * tokens and those of expired or revoked accounts.
 */
export async function creatorFor(ctx: SimulatorContext, req: Request, scope: string): Promise<Creator> {
  const token = /^Bearer (\S+)$/.exec(req.get('Authorization') ?? '')?.[1] ?? '';
  const id = sandboxTokenAccount(token, 'access') ?? (token.startsWith('sandbox-') ? token : undefined);
  if (!id) throw FAULTS.tokenInvalid();
  const account = await ctx.state.account(id);
  if (account && account.tokens !== 'ok') throw FAULTS.tokenInvalid();
  // Each endpoint names its scope; posting's need video.publish: "The target TikTok user must have authorized your
  // app for the video.publish scope" (https://developers.tiktok.com/doc/content-posting-api-get-started, read
  // 2026-11-29). A token without a consent here (`herald account add-sandbox`) holds every scope.
  const grant = await grantOf(ctx, token);
  if (grant && !grant.data.scope.split(',').includes(scope)) throw FAULTS.scope();
  return creatorOf(id, account?.name ?? id);
}
