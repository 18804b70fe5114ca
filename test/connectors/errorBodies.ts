// Error answers as each network documents them (status, headers, exact JSON body), one table per network,
// each row with the kind of failure Herald must make of it. The bodies are copied from the public page
// named in `source`; where a network's pages show none, a body seen in public reports is used and says so.
import type { FailureKind } from '../../networks/connector.ts';

export interface DocumentedError {
  /** What the documentation calls this error. */
  name: string;
  /** Public address of the page that shows the body (or the report, where the network's pages show none). */
  source: string;
  status: number;
  headers?: Record<string, string>;
  body: unknown;
  /**
   * The call that answers it: the first call of a publish (default), the publish call once the
   * network has processed the container, or the token refresh.
   */
  at?: 'first' | 'publish' | 'refresh';
  kind: FailureKind;
  /**
   * Seconds the network names for waiting (Meta's estimated_time_to_regain_access, Retry-After), or the wait until
   * the network's daily reset (YouTube's, at midnight Pacific time), which depends on when the test runs.
   */
  retryAfterSeconds?: number | 'untilDailyReset';
}

// ------------------------------------------------------------------------------------------ YouTube
const YT_ERRORS = 'https://developers.google.com/youtube/v3/docs/errors';
const YT_INSERT = 'https://developers.google.com/youtube/v3/docs/videos/insert';
const GOOGLE_OAUTH = 'https://developers.google.com/identity/protocols/oauth2/web-server#exchange-errors-invalid-grant';

/** `{"error":{"code","message","errors":[{"message","domain","reason",...}]}}`, as every Google API answers. */
function google(code: number, message: string, reason: string, domain: string, extra: Record<string, string> = {}) {
  return { error: { code, message, errors: [{ message, domain, reason, ...extra }] } };
}

export const youtubeErrors: DocumentedError[] = [
  {
    name: "quotaExceeded: the project's daily quota is spent",
    source: YT_ERRORS,
    status: 403,
    kind: 'quota_exceeded',
    body: google(
      403,
      'The request cannot be completed because you have exceeded your ' +
        '<a href="/youtube/v3/getting-started#quota">quota</a>.',
      'quotaExceeded',
      'youtube.quota',
    ),
  },
  {
    name: 'dailyLimitExceeded (legacy usage limits)',
    source: YT_ERRORS,
    status: 403,
    kind: 'quota_exceeded',
    body: google(403, 'Daily Limit Exceeded', 'dailyLimitExceeded', 'usageLimits'),
  },
  {
    name: '429 on the "Video Uploads per day" bucket',
    source: 'https://github.com/googleapis/google-api-python-client/issues/2753',
    status: 429,
    kind: 'quota_exceeded',
    headers: { 'Retry-After': '3600' },
    body: google(
      429,
      "Quota exceeded for quota metric 'Video Uploads' and limit 'Video Uploads per day' of service " +
        "'youtube.googleapis.com' for consumer 'project_number:123456789'.",
      'rateLimitExceeded',
      'global',
    ),
  },
  {
    name: "uploadLimitExceeded: the channel's own daily upload cap",
    source: YT_INSERT,
    status: 400,
    kind: 'rate_limited',
    retryAfterSeconds: 'untilDailyReset',
    body: google(
      400,
      'The user has exceeded the number of videos they may upload.',
      'uploadLimitExceeded',
      'youtube.video',
    ),
  },
  {
    name: 'rateLimitExceeded with Retry-After',
    source: 'https://developers.google.com/youtube/v3/guides/using_resumable_upload_protocol',
    status: 429,
    kind: 'rate_limited',
    retryAfterSeconds: 30,
    headers: { 'Retry-After': '30' },
    body: google(
      429,
      'The request cannot be completed because too many requests were sent in a given amount of time.',
      'rateLimitExceeded',
      'youtube.quota',
    ),
  },
  {
    name: 'forbidden',
    source: YT_ERRORS,
    status: 403,
    kind: 'permission_missing',
    body: google(403, 'Access forbidden. The request may not be properly authorized.', 'forbidden', 'youtube.video'),
  },
  {
    name: 'insufficientPermissions: the token lacks the upload scope',
    source: YT_ERRORS,
    status: 403,
    kind: 'permission_missing',
    body: google(403, 'Request had insufficient authentication scopes.', 'insufficientPermissions', 'global'),
  },
  {
    name: 'youtubeSignupRequired: the Google account has no channel',
    source: YT_ERRORS,
    status: 401,
    kind: 'unverified',
    body: google(401, 'Unauthorized', 'youtubeSignupRequired', 'youtube.header', {
      locationType: 'header',
      location: 'Authorization',
    }),
  },
  {
    name: 'authError: an expired or invalid access token',
    source: YT_ERRORS,
    status: 401,
    kind: 'token_rejected',
    body: google(401, 'Invalid Credentials', 'authError', 'global', {
      locationType: 'header',
      location: 'Authorization',
    }),
  },
  {
    name: 'authenticatedUserAccountSuspended',
    source: YT_ERRORS,
    status: 403,
    kind: 'token_rejected',
    body: google(
      403,
      'The YouTube account of the authenticated user is suspended.',
      'authenticatedUserAccountSuspended',
      'youtube.common',
    ),
  },
  {
    name: 'invalidTitle',
    source: YT_INSERT,
    status: 400,
    kind: 'rejected',
    body: google(
      400,
      'The request metadata specifies an invalid or empty video title.',
      'invalidTitle',
      'youtube.video',
    ),
  },
  {
    name: 'invalidCategoryId',
    source: YT_INSERT,
    status: 400,
    kind: 'rejected',
    body: google(
      400,
      'The <code>snippet.categoryId</code> property specifies an invalid category ID.',
      'invalidCategoryId',
      'youtube.video',
    ),
  },
  {
    name: 'backendError',
    source: YT_ERRORS,
    status: 503,
    kind: 'unavailable',
    body: google(503, 'Backend Error', 'backendError', 'global'),
  },
  {
    name: 'internalError',
    source: YT_ERRORS,
    status: 500,
    kind: 'unavailable',
    body: google(500, 'Internal error encountered.', 'internalError', 'global'),
  },
  {
    name: 'invalid_grant on refresh: the refresh token expired or was revoked',
    source: GOOGLE_OAUTH,
    status: 400,
    at: 'refresh',
    kind: 'token_rejected',
    body: { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' },
  },
];

// ----------------------------------------------------------------------------- Meta's Graph hosts
const GRAPH_ERRORS = 'https://developers.facebook.com/docs/graph-api/guides/error-handling';
const GRAPH_RATE = 'https://developers.facebook.com/docs/graph-api/overview/rate-limiting';
const IG_ERRORS = 'https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/error-codes';

/** `{"error":{"message","type","code","error_subcode","fbtrace_id",...}}`, as every Graph host answers. */
function graph(
  code: number,
  message: string,
  more: { subcode?: number; type?: string; transient?: boolean; title?: string; userMsg?: string } = {},
) {
  return {
    error: {
      message,
      type: more.type ?? 'OAuthException',
      code,
      ...(more.subcode !== undefined ? { error_subcode: more.subcode } : {}),
      ...(more.transient !== undefined ? { is_transient: more.transient } : {}),
      ...(more.title ? { error_user_title: more.title } : {}),
      ...(more.userMsg ? { error_user_msg: more.userMsg } : {}),
      fbtrace_id: 'A6LJylpZRKw2xKLFsAP-cJh',
    },
  };
}

/** X-App-Usage: percentages of the app's hourly allowance, without a time to wait. */
const APP_USAGE = { 'X-App-Usage': '{"call_count":100,"total_cputime":25,"total_time":25}' };
/** X-Business-Use-Case-Usage: per business id, with the minutes until access returns. */
const bucUsage = (type: string, minutes: number) => ({
  'X-Business-Use-Case-Usage': JSON.stringify({
    1234567890: [
      { type, call_count: 100, total_cputime: 10, total_time: 10, estimated_time_to_regain_access: minutes },
    ],
  }),
});

/** The rows every Graph network shares (tokens, permissions, throttling, transient errors). */
function graphCommon(
  type: string,
  buc: { code: number; type: string; message: string; source: string } | undefined,
): DocumentedError[] {
  const g = (code: number, message: string, more: Parameters<typeof graph>[2] = {}) =>
    graph(code, message, { type, ...more });
  return [
    {
      name: '190: invalid token, no subcode',
      source: GRAPH_ERRORS,
      status: 400,
      kind: 'token_rejected',
      body: g(190, 'Invalid OAuth access token - Cannot parse access token'),
    },
    {
      name: '190/463: token expired',
      source: GRAPH_ERRORS,
      status: 400,
      kind: 'token_rejected',
      body: g(
        190,
        'Error validating access token: Session has expired on Tuesday, 24-Nov-26 04:00:00 PST. ' +
          'The current time is Tuesday, 24-Nov-26 05:12:00 PST.',
        { subcode: 463 },
      ),
    },
    {
      name: '190/467: invalid token',
      source: GRAPH_ERRORS,
      status: 400,
      kind: 'token_rejected',
      body: g(190, 'Error validating access token: The session is invalid because the user logged out.', {
        subcode: 467,
      }),
    },
    {
      name: '190/460: password changed',
      source: GRAPH_ERRORS,
      status: 400,
      kind: 'token_rejected',
      body: g(
        190,
        'Error validating access token: The session has been invalidated because the user changed their password ' +
          'or Facebook has changed the session for security reasons.',
        { subcode: 460 },
      ),
    },
    {
      name: '10: permission denied',
      source: GRAPH_ERRORS,
      status: 400,
      kind: 'permission_missing',
      body: g(10, '(#10) Application does not have permission for this action'),
    },
    {
      name: '200: permission not granted',
      source: GRAPH_ERRORS,
      status: 400,
      kind: 'permission_missing',
      body: g(200, "(#200) The user hasn't authorized the application to perform this action"),
    },
    {
      name: '4: application request limit, with X-App-Usage',
      source: GRAPH_RATE,
      status: 400,
      kind: 'rate_limited',
      headers: APP_USAGE,
      body: g(4, '(#4) Application request limit reached', { transient: true }),
    },
    {
      name: '17: user request limit',
      source: GRAPH_RATE,
      status: 400,
      kind: 'rate_limited',
      body: g(17, '(#17) User request limit reached', { transient: true }),
    },
    {
      name: '613: custom rate limit',
      source: GRAPH_RATE,
      status: 400,
      kind: 'rate_limited',
      body: g(613, '(#613) Calls to this api have exceeded the rate limit.'),
    },
    {
      name: '341: application limit reached',
      source: GRAPH_ERRORS,
      status: 400,
      kind: 'rate_limited',
      body: g(341, '(#341) Application limit reached'),
    },
    ...(buc
      ? [
          {
            name: `${buc.code}: business use case limit, with X-Business-Use-Case-Usage`,
            source: buc.source,
            status: 400,
            kind: 'rate_limited' as const,
            headers: bucUsage(buc.type, 19),
            retryAfterSeconds: 19 * 60,
            body: g(buc.code, buc.message),
          },
        ]
      : []),
    {
      name: '1: unknown, transient',
      source: GRAPH_ERRORS,
      status: 500,
      kind: 'unavailable',
      body: g(1, 'An unknown error occurred', { transient: true }),
    },
    {
      name: '2: service, transient',
      source: GRAPH_ERRORS,
      status: 503,
      kind: 'unavailable',
      body: g(2, 'An unexpected error has occurred. Please retry your request later.', { transient: true }),
    },
    {
      name: '100: invalid parameter',
      source: GRAPH_ERRORS,
      status: 400,
      kind: 'rejected',
      body: g(100, '(#100) Invalid parameter'),
    },
  ];
}

/** An Instagram publishing error from its error codes table: HTTP 400, code and subcode, the user message. */
function ig(
  code: number,
  subcode: number,
  userMsg: string,
  kind: FailureKind,
  at?: DocumentedError['at'],
): DocumentedError {
  return {
    name: `${code}/${subcode}`,
    source: IG_ERRORS,
    status: 400,
    kind,
    ...(at ? { at } : {}),
    body: graph(code, userMsg, { subcode, userMsg }),
  };
}

export const instagramErrors: DocumentedError[] = [
  ...graphCommon('OAuthException', {
    code: 80002,
    type: 'instagram',
    source: 'https://developers.facebook.com/docs/instagram-platform/instagram-graph-api/reference/ig-user',
    message:
      '(#80002) There have been too many calls to this Instagram account. Wait a bit and try again. For more info, ' +
      'please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting.',
  }),
  {
    name: '403 200: ads_management missing for a Business Manager role',
    source: IG_ERRORS,
    status: 403,
    kind: 'permission_missing',
    body: graph(200, 'The calling app is missing the ads_management permission for the target.'),
  },
  // The sample response of the error codes page, word for word.
  {
    name: '36000/2207004: the sample response',
    source: IG_ERRORS,
    status: 400,
    kind: 'rejected',
    body: {
      error: {
        message: 'The image size is too large.',
        type: 'OAuthException',
        code: 36000,
        error_subcode: 2207004,
        is_transient: false,
        error_user_title: 'Image size too large',
        error_user_msg: 'The image is too large to download. It should be less than 8 MiB.',
        fbtrace_id: 'A6LJylpZRKw2xKLFsAP-cJh',
      },
    },
  },
  ig(-2, 2207003, 'It takes too long to download the media.', 'unavailable'),
  ig(
    -2,
    2207020,
    'The media you are trying to access has expired. Please try to upload again.',
    'unavailable',
    'publish',
  ),
  ig(-1, 2207001, 'Instagram server error. Try again.', 'unavailable'),
  ig(-1, 2207032, 'Create media fail, please try to re-create media', 'unavailable'),
  ig(-1, 2207053, 'unknown upload error', 'unavailable'),
  // Suspected spam: retrying by itself is what gets accounts flagged, so a person decides.
  ig(
    4,
    2207051,
    'We restrict certain activity to protect our community. Tell us if you think we made a mistake.',
    'rejected',
    'publish',
  ),
  ig(
    9,
    2207042,
    'You reached maximum number of posts that is allowed to be published by Content Publishing API.',
    'rate_limited',
    'publish',
  ),
  ig(24, 2207006, 'The media with 17895695668004550 cannot be found', 'rejected'),
  ig(
    24,
    2207008,
    'The media builder with creation id = 17895695668004550 does not exist or has been expired.',
    'unavailable',
    'publish',
  ),
  ig(25, 2207050, 'The Instagram account is restricted.', 'rejected'),
  ig(100, 2207023, 'The media type CAROUSEL_ALBUM is unknown.', 'rejected'),
  ig(
    100,
    2207028,
    "Your post won't work as a carousel. Carousels need at least 2 photos/videos and no more than 10 photos/videos.",
    'rejected',
  ),
  ig(100, 2207040, 'Cannot use more than 20 tags per created media.', 'rejected'),
  ig(352, 2207026, 'The video format is not supported. Please check spec for supported video format', 'rejected'),
  ig(9004, 2207052, 'The media could not be fetched from this uri: https://media.acme.example/autumn.jpg', 'rejected'),
  ig(9007, 2207027, 'The media is not ready for publishing, please wait for a moment', 'unavailable', 'publish'),
  ig(36001, 2207005, 'The image format image/heic is not supported. Supported formats are: image/jpeg.', 'rejected'),
  ig(
    36003,
    2207009,
    'The submitted image with aspect ratio 0.5/1 cannot be published. ' +
      'Please submit an image with a valid aspect ratio.',
    'rejected',
  ),
  ig(
    36004,
    2207010,
    "The submitted image's caption was 2300 characters long. " +
      'The maximum number of characters permitted for a caption ' +
      'is 2200. Please submit media with a shorter caption.',
    'rejected',
  ),
];

export const facebookErrors: DocumentedError[] = [
  ...graphCommon('OAuthException', {
    code: 80001,
    type: 'pages',
    source: 'https://developers.facebook.com/docs/graph-api/reference/page',
    message:
      '(#80001) There have been too many calls to this Page account. Wait a bit and try again. For more info, ' +
      'please refer to https://developers.facebook.com/docs/graph-api/overview/rate-limiting.',
  }),
  {
    name: '32: Page request limit',
    source: GRAPH_RATE,
    status: 400,
    kind: 'rate_limited',
    body: graph(32, '(#32) Page request limit reached'),
  },
  {
    name: '368: temporarily blocked for policy violations',
    source: GRAPH_ERRORS,
    status: 400,
    kind: 'rejected',
    body: graph(368, 'The action attempted has been deemed abusive or is otherwise disallowed'),
  },
  {
    name: '506: duplicate post',
    source: GRAPH_ERRORS,
    status: 400,
    kind: 'rejected',
    body: graph(506, '(#506) Duplicate status message'),
  },
  {
    name: '1609005: the link could not be scraped',
    source: GRAPH_ERRORS,
    status: 400,
    kind: 'rejected',
    body: graph(1609005, 'Error posting link: there was a problem scraping data from the provided link.'),
  },
];

export const threadsErrors: DocumentedError[] = [
  // Threads answers in the Graph shape, with type THApiException besides OAuthException.
  ...graphCommon('THApiException', undefined),
  // The shape is that of Meta's Threads pages; this code and subcode come from public reports of
  // publishing right after the container finished.
  {
    name: '24/4279009: Media Not Found right after processing',
    source: 'https://developers.facebook.com/docs/threads/troubleshooting',
    status: 400,
    at: 'publish',
    kind: 'unavailable',
    body: graph(24, 'The requested resource does not exist', {
      subcode: 4279009,
      type: 'THApiException',
      title: 'Media Not Found',
      userMsg: 'The media with id 17890000000000001 could not be found.',
    }),
  },
  {
    name: '190/463 on refresh_access_token',
    source: 'https://developers.facebook.com/docs/threads/get-started/long-lived-tokens',
    status: 400,
    at: 'refresh',
    kind: 'token_rejected',
    body: graph(190, 'Error validating access token: Session has expired on Tuesday, 24-Nov-26 04:00:00 PST.', {
      subcode: 463,
    }),
  },
];

/**
 * The network's own words in a body, as a person should read them in the failure: Meta's
 * error_user_msg (the message meant for people) or message, Google's message without its markup, or
 * an OAuth error_description.
 */
export function networkWords(body: unknown): string {
  const b = body as { error?: string | { message?: string; error_user_msg?: string }; error_description?: string };
  if (typeof b.error === 'object') return (b.error.error_user_msg ?? b.error.message ?? '').replace(/<[^>]*>/g, '');
  return b.error_description ?? '';
}

/**
 * What a body carries that its documentation is searched by: Graph's code and subcode, Google's
 * status and reason, an OAuth status and error.
 */
export function documentedNumbers(status: number, body: unknown): string[] {
  const error = (body as { error?: unknown }).error;
  if (typeof error === 'string') return [`${status} ${error}`];
  if (typeof error !== 'object' || error === null) return [String(status)];
  const e = error as { code?: number; error_subcode?: number; errors?: { reason: string }[] };
  if (e.errors) return [`${status} ${e.errors[0]!.reason}`];
  return [`code ${e.code}`, ...(e.error_subcode !== undefined ? [`subcode ${e.error_subcode}`] : [])];
}
