// TikTok's refusals: its error codes and sentences, those `herald sandbox fail` answers, and the envelope they go in.
import type { NextFunction, Request, Response } from 'express';
import { randomBase62 } from '../../../domain/ids.ts';
import type { Scenario } from '../../sandbox/state.ts';

export class TiktokFault extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export const FAULTS = {
  tokenInvalid: () =>
    new TiktokFault(401, 'access_token_invalid', 'The access token is invalid or not found in the request.'),
  scope: () =>
    new TiktokFault(
      401,
      'scope_not_authorized',
      'The user did not authorize the scope required for completing this request.',
    ),
  rate: () => new TiktokFault(429, 'rate_limit_exceeded', 'API rate limit exceeded, please retry later.'),
  spam: () =>
    new TiktokFault(
      403,
      'spam_risk_too_many_posts',
      'The daily post cap from the API is reached for the current user.',
    ),
  unaudited: () =>
    new TiktokFault(
      403,
      'unaudited_client_can_only_post_to_private_accounts',
      'Unaudited clients can only post to a private account.',
    ),
  userCap: () =>
    new TiktokFault(
      403,
      'reached_active_user_cap',
      'The daily quota for active publishing users from your client is reached.',
    ),
  mismatch: (level: string) =>
    new TiktokFault(
      400,
      'privacy_level_option_mismatch',
      `privacy_level ${level} is not among the creator's privacy_level_options.`,
    ),
  unverified: (url: string) =>
    new TiktokFault(403, 'url_ownership_unverified', `The domain of ${url} is not verified for this app.`),
  internal: () => new TiktokFault(500, 'internal_error', 'Something went wrong. Please try again later.'),
  param: (message: string) => new TiktokFault(400, 'invalid_param', message),
  notFound: () => new TiktokFault(404, 'invalid_publish_id', 'The publish_id does not exist.'),
};

export const SCENARIO_FAULTS: Record<Exclude<Scenario, 'rejected'>, () => TiktokFault> = {
  unavailable: FAULTS.internal,
  rate_limited: FAULTS.rate,
  token_rejected: FAULTS.tokenInvalid,
  permission_missing: FAULTS.scope,
  quota_exceeded: FAULTS.spam,
  unverified: FAULTS.unaudited,
};

/** TikTok's envelope for every refusal; anything else is the simulator's own fault, answered as TikTok's. */
export function sendFault(err: Error & { type?: string }, _req: Request, res: Response, next: NextFunction) {
  if (res.headersSent) return next(err);
  const fault =
    err instanceof TiktokFault
      ? err
      : err.type === 'entity.parse.failed'
        ? FAULTS.param('The request body is not JSON.')
        : FAULTS.internal();
  res.status(fault.status).json({ error: { code: fault.code, message: fault.message, log_id: randomBase62(20) } });
}
