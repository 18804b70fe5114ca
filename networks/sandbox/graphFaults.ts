// The Graph simulators' refusals: Meta's error body, the queued failure scenarios, an account's token checks.
import { randomBase62 } from '../../domain/ids.ts';
import type { Platform } from '../rules.ts';
import type { SimulatorContext } from './simulator.ts';
import type { Scenario } from './state.ts';

/**
 * `{"error":{...}}` as every Graph host sends it (Threads adds type THApiException), from
 * https://developers.facebook.com/docs/graph-api/guides/error-handling.
 */
interface GraphErrorBody {
  message?: string;
  type?: string;
  code?: number;
  error_subcode?: number;
  is_transient?: boolean;
  error_user_title?: string;
  error_user_msg?: string;
  fbtrace_id?: string;
}

/** A Graph error answer: thrown by handlers, rendered by graphRoute. */
export class GraphFault extends Error {
  constructor(
    readonly httpStatus: number,
    readonly error: GraphErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(error.message);
  }

  get body(): object {
    return { error: this.error };
  }
}

/** The upload host (rupload) answers its failures in a shape of its own. */
export class UploadFault extends GraphFault {
  constructor(
    httpStatus: number,
    readonly debugInfo: { retriable: boolean; type: string; message: string },
  ) {
    super(httpStatus, { message: debugInfo.message });
  }

  override get body(): object {
    return { debug_info: this.debugInfo };
  }
}

type FaultSpec = [
  httpStatus: number,
  error: Omit<GraphErrorBody, 'fbtrace_id' | 'type'> & { type?: string },
  headers?: Record<string, string>,
];

export function fault(network: Platform, [httpStatus, error, headers]: FaultSpec): GraphFault {
  // Threads answers its own errors as THApiException; token errors stay OAuthException everywhere.
  const type = error.type ?? (network === 'threads' && error.code !== 190 ? 'THApiException' : 'OAuthException');
  return new GraphFault(
    httpStatus,
    { is_transient: false, ...error, type, fbtrace_id: `A${randomBase62(22)}` },
    headers,
  );
}

/** A Page's business-use-case limit: Meta names the minutes until calls are allowed again. */
export const PAGE_LIMIT_REGAIN_MINUTES = 30;

export const TOKEN_INVALID: FaultSpec = [
  400,
  { message: 'Invalid OAuth access token - Cannot parse access token', code: 190 },
];
const SESSION_INVALIDATED: FaultSpec = [
  400,
  {
    message:
      'Error validating access token: The session has been invalidated because the user changed their ' +
      'password or Facebook has changed the session for security reasons.',
    code: 190,
    error_subcode: 460,
  },
];

/**
 * How each network answers the scenarios of `herald sandbox fail`. Meta's networks have no project
 * quota and no verification step: `quota_exceeded` answers their daily publishing limit and
 * `unverified` the permission refusal a Page gets before Page Publishing Authorization.
 */
const SCENARIO_FAULTS: Record<Scenario, Partial<Record<Platform, FaultSpec>> & { default: FaultSpec }> = {
  unavailable: {
    default: [
      500,
      { message: 'An unexpected error has occurred. Please retry your request later.', code: 2, is_transient: true },
    ],
  },
  rate_limited: {
    default: [400, { message: 'Application request limit reached', code: 4, is_transient: true }],
    facebook: [
      400,
      { message: '(#32) Page request limit reached', code: 32, is_transient: true },
      {
        'X-Business-Use-Case-Usage': JSON.stringify({
          '0': [
            {
              type: 'pages',
              call_count: 100,
              total_cputime: 12,
              total_time: 15,
              estimated_time_to_regain_access: PAGE_LIMIT_REGAIN_MINUTES,
            },
          ],
        }),
      },
    ],
  },
  token_rejected: { default: SESSION_INVALIDATED },
  permission_missing: {
    default: [403, { message: 'Application does not have permission for this action', code: 10 }],
    facebook: [
      403,
      {
        message:
          '(#200) If posting to a page, requires both pages_read_engagement and pages_manage_posts ' +
          'permission with page token',
        code: 200,
      },
    ],
  },
  rejected: {
    default: [
      400,
      {
        message: '(#368) The action attempted has been deemed abusive or is otherwise disallowed',
        code: 368,
        error_user_title: 'Post blocked',
        error_user_msg: 'This post goes against the Community Standards, so only you can see it.',
      },
    ],
    instagram: [
      400,
      {
        message: 'The aspect ratio is not supported.',
        code: 36003,
        error_subcode: 2207009,
        error_user_title: 'Cannot publish the image',
        error_user_msg:
          "The submitted image with aspect ratio ('0.5/1') cannot be published. " +
          'Please submit an image with a valid aspect ratio.',
      },
    ],
    threads: [
      400,
      {
        message: 'Invalid parameter',
        code: 100,
        error_user_title: 'Too many links',
        error_user_msg: 'THREADS_API__LINK_LIMIT_EXCEEDED: a post may contain at most 5 links.',
      },
    ],
  },
  quota_exceeded: {
    default: [
      400,
      {
        message: 'Application request limit reached',
        code: 4,
        is_transient: true,
        error_user_title: 'Publishing limit reached',
        error_user_msg: 'The account has reached its limit of posts published through the API in 24 hours.',
      },
    ],
    instagram: [
      400,
      {
        message: 'Application request limit reached',
        code: 9,
        error_subcode: 2207042,
        error_user_title: 'Publishing limit reached',
        error_user_msg: 'You have reached the maximum number of posts allowed through the API in 24 hours.',
      },
    ],
  },
  unverified: {
    default: [
      403,
      {
        message: 'Application does not have permission for this action',
        code: 10,
        error_user_msg:
          'The account must confirm its identity with two-factor authentication before it can publish through the API.',
      },
    ],
    facebook: [
      403,
      {
        message: '(#200) Publishing to this Page requires Page Publishing Authorization',
        code: 200,
        error_user_msg:
          'An admin of this Page must complete Page Publishing Authorization before anything can be published.',
      },
    ],
  },
};

/** Graph's answer for an id it does not know (or that is not the caller's). */
export const notFoundFault = (network: Platform, id: string) =>
  fault(network, [
    400,
    {
      message:
        `Unsupported get request. Object with ID '${id}' does not exist, cannot be loaded due to missing ` +
        `permissions, or does not support this operation.`,
      code: 100,
      error_subcode: 33,
    },
  ]);

export function scenarioFault(network: Platform, scenario: Scenario): GraphFault {
  const specs = SCENARIO_FAULTS[scenario];
  return fault(network, specs[network] ?? specs.default);
}

/**
 * Refuses calls for an account set to expired or revoked (`herald account add-sandbox --status`), as
 * the network refuses its token, then answers a failure queued with `herald sandbox fail`, if any.
 */
export async function admitPublishingCall(ctx: SimulatorContext, network: Platform, account: string): Promise<void> {
  const { tokens, failing } = await ctx.state.admission(account);
  if (tokens === 'expired')
    throw fault(network, [
      400,
      { message: 'Error validating access token: Session has expired.', code: 190, error_subcode: 463 },
    ]);
  if (tokens === 'revoked')
    throw fault(network, [
      400,
      {
        message: 'Error validating access token: The user has not authorized application.',
        code: 190,
        error_subcode: 458,
      },
    ]);
  const scenario = failing ? await ctx.state.takeFailure(account) : undefined;
  if (scenario) throw scenarioFault(network, scenario);
}
